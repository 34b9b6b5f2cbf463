"""The provider's side of request ids, access logs and metrics: ``portal.request_timing``'s
middleware, observing each answer by route.

The request id comes from the caller's ``X-Request-ID`` (the portal sends its own) or is made
here; it goes back in the answer's header and on every log line written while the request runs.
Each answer is counted and timed by route template (``/api/users/{user_id}``, never a path with
an id in it), and logins, 429 refusals, requests made with an API token, imports and exports
feed their own metrics.
"""

import logging

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Scope

from portal import metrics
from portal.provider.platform.headers import add_security_headers
from portal.request_timing import TimedRequests

logger = logging.getLogger("portal.provider.access")


class ProviderRequestMiddleware(TimedRequests):
    """One middleware for what every provider answer gets: its request id, its security
    headers (one wrapper of ``send`` for both, not a middleware each), its log line and
    metrics."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        super().__init__(app)
        self.hsts = hsts

    def add_headers(self, headers: MutableHeaders) -> None:
        add_security_headers(headers, hsts=self.hsts)

    def observe(self, scope: Scope, status: int, elapsed: float, received: int, sent: int) -> None:
        _observe(scope, status, elapsed, received, sent)


def _observe(scope: Scope, status: int, elapsed: float, received: int, sent: int) -> None:
    method = scope["method"]
    # The template as the document names it (``/api/services/{service_id}``, not ``…:uuid}``).
    route = getattr(scope.get("route"), "path_format", None) or "unmatched"
    metrics.PROVIDER_REQUESTS.labels(method, route, str(status)).inc()
    metrics.PROVIDER_LATENCY.labels(method, route, str(status)).observe(elapsed)
    if route == "/login" and method == "POST":
        metrics.LOGINS.labels("success" if status < 300 else "failure").inc()
    if status == 429:
        metrics.RATE_LIMIT_REFUSALS.labels(route).inc()
    if _has_bearer(scope):
        # ``security`` names the kind of a token that opened a principal.
        kind = scope.get("state", {}).get("api_token", "invalid")
        metrics.API_TOKEN_REQUESTS.labels(kind, route, str(status)).inc()
    if status < 400 and metrics.is_import(method, route):
        metrics.IMPORT_BYTES.labels(route).observe(received)
    if status < 400 and metrics.is_export(method, route):
        metrics.EXPORT_BYTES.labels(route).observe(sent)
    logger.info(
        "%s %s %s %.1f ms",
        method,
        route,
        status,
        elapsed * 1000,
        extra={
            "http_method": method,
            "route": route,
            "status": status,
            "duration_ms": round(elapsed * 1000, 1),
        },
    )


def _has_bearer(scope: Scope) -> bool:
    return any(
        name == b"authorization" and value[:7].lower() == b"bearer "
        for name, value in scope.get("headers", ())
    )
