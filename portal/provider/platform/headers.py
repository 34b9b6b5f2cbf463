"""Security headers on every provider response (DESIGN section 4)."""

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal.provider.platform.responses import JsonLdResponse

_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
_HSTS = "max-age=63072000; includeSubDomains"


class SecurityHeadersMiddleware:
    """Adds the headers as the response starts, so streamed downloads keep streaming. API
    answers carry personal data: they are not to be cached unless a route says otherwise."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if headers.get("content-type") == "application/json":
                    # FastAPI's direct serialisation names plain JSON; the provider's is JSON-LD.
                    headers["content-type"] = JsonLdResponse.media_type
                for name, value in _HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("Cache-Control", "no-store")
                if self.hsts:
                    headers.setdefault("Strict-Transport-Security", _HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)
