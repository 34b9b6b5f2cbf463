"""The portal's edge: a small ASGI middleware around everything the backend serves.

Each HTTP request gets its request id here (``portal.request_timing``: kept from a proxy's
``X-Request-ID`` when it looks like one), sent back in ``X-Request-ID`` with ``X-Served-By``
naming the instance, and one access line is logged (the path without its query, which may hold
a ticket). Websocket connections to
``/_event`` are counted for ``patchbay_websocket_clients``. Behind the reverse proxies of
``TRUSTED_PROXIES``, ``ForwardedClient`` makes the user's address the request's client. Security
headers, origins and body limits are another middleware's business.
"""

import logging

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from portal import metrics
from portal.forwarded import TrustedProxies
from portal.health import HEALTH_PATH, METRICS_PATH, READY_PATH
from portal.request_timing import TimedRequests

logger = logging.getLogger("portal.access")

EVENT_PATH = "/_event"
# Probes and scrapes come every few seconds: logged only when they fail.
_QUIET_PATHS = {HEALTH_PATH, READY_PATH, METRICS_PATH, "/ping"}
_STATIC_PREFIXES = ("/assets/", "/_next/", "/favicon")


class ForwardedClient:
    """The user's address behind the reverse proxies of ``TRUSTED_PROXIES`` (issue 47, item 13).

    Behind nginx every request's peer is nginx: the rate limits counted every user's failed
    logins against that one address. The request's client becomes the address
    ``portal.forwarded`` reads (a peer that is no trusted proxy stays the client, whatever header
    it sends), so that Reflex's ``client_ip``, which the states forward to the provider, and the
    portal's own routes see the user. Reflex's ``trusted_proxy_hops`` stays unset: it would
    believe the header from any peer.

    The embedded provider's requests do not come here (``portal.provider_first``): it judges its
    own peers (``sessions.client_address``), the portal's backend being the proxy of its calls,
    which the provider's secure-cookie rule must see.
    """

    def __init__(self, app: ASGIApp, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and scope.get("client"):
            peer = scope["client"][0]
            forwarded_for = ",".join(Headers(scope=scope).getlist("x-forwarded-for"))
            client = self.trusted.client_address(peer, forwarded_for)
            if client != peer:
                scope = {**scope, "client": (client, 0)}
        await self.app(scope, receive, send)


class EdgeMiddleware(TimedRequests):
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"].startswith(EVENT_PATH):
            metrics.WEBSOCKET_CLIENTS.inc()
            try:
                await self.app(scope, receive, send)
            finally:
                metrics.WEBSOCKET_CLIENTS.dec()
            return
        await super().__call__(scope, receive, send)

    def observe(self, scope: Scope, status: int, elapsed: float, received: int, sent: int) -> None:
        path = scope["path"]
        if status < 400 and (path in _QUIET_PATHS or path.startswith(_STATIC_PREFIXES)):
            return
        logger.info(
            "%s %s %s %.1f ms",
            scope["method"],
            path,
            status,
            elapsed * 1000,
            extra={
                "http_method": scope["method"],
                "path": path,
                "status": status,
                "duration_ms": round(elapsed * 1000, 1),
            },
        )
