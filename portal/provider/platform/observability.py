"""The provider's side of request ids, access logs and metrics: one small ASGI middleware.

The request id comes from the caller's ``X-Request-ID`` (the portal sends its own) or is made
here; it goes back in the answer's header and on every log line written while the request runs.
Each answer is counted and timed by route template (``/api/users/{user_id}``, never a path with
an id in it), and logins, 429 refusals, imports and exports feed their own metrics.
"""

import logging
import time

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal import metrics
from portal.logs import REQUEST_ID_HEADER, accept_request_id, request_id_var

logger = logging.getLogger("portal.provider.access")


class ProviderRequestMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = accept_request_id(Headers(scope=scope).get(REQUEST_ID_HEADER))
        # Not reset at the end: the unexpected-error handler, which Starlette runs outside
        # every middleware, still logs and answers with it. Each request is its own task.
        request_id_var.set(request_id)
        started = time.perf_counter()
        status = 500
        sent_bytes = 0
        received_bytes = 0

        async def counting_receive() -> Message:
            nonlocal received_bytes
            message = await receive()
            if message["type"] == "http.request":
                received_bytes += len(message.get("body", b""))
            return message

        async def send_with_id(message: Message) -> None:
            nonlocal status, sent_bytes
            if message["type"] == "http.response.start":
                status = message["status"]
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = request_id
            elif message["type"] == "http.response.body":
                sent_bytes += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, counting_receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            _observe(scope, status, elapsed, received_bytes, sent_bytes)


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
