"""Security headers on every provider response (DESIGN section 4), added as the response starts
by the provider's request middleware (``observability``), so streamed downloads keep streaming.
API answers carry personal data: they are not to be cached unless a route says otherwise."""

from starlette.datastructures import MutableHeaders

from portal.provider.platform.responses import JsonLdResponse

_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
_HSTS = "max-age=63072000; includeSubDomains"


def add_security_headers(headers: MutableHeaders, *, hsts: bool) -> None:
    if headers.get("content-type") == "application/json":
        # FastAPI's direct serialisation names plain JSON; the provider's is JSON-LD.
        headers["content-type"] = JsonLdResponse.media_type
    for name, value in _HEADERS.items():
        headers.setdefault(name, value)
    headers.setdefault("Cache-Control", "no-store")
    if hsts:
        headers.setdefault("Strict-Transport-Security", _HSTS)
