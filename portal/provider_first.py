"""The embedded provider's requests taken at the top of the served app, before Reflex's stack.

A request under ``/provider/`` crossed two Starlette applications it has no use for (Reflex's
top one with its CORS and context middlewares, then the backend with the portal's edge,
forwarded client, security headers, upload check and limits) before the provider's own
middlewares did the same kinds of work again: 0.27 ms of a worker's CPU per request
(docs/decisions/provider-floor.md). Of the portal's layers a provider request needs only the
drain counter, so that a stopping worker waits for it and closes its connection after it. The
provider has its own request id, access line, security headers and limits; the backend's
edge, forwarded client and limits already left ``/provider`` to it, and the portal's own
origin, the only one Reflex's CORS allowed, calls it from the same origin.

``PortalApp`` is Reflex's app with that dispatch around what it serves: ``reflex run`` and
``python -m portal.serve`` both call the app to get their ASGI app. Without Redis it keeps the
tabs' states on disk through ``DiskStates``, which looks for expired ones once a minute.
"""

import reflex as rx
from reflex.istate.manager.disk import StateManagerDisk
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Receive, Scope, Send

from portal.drain import DrainMiddleware
from portal.state.disk_states import DiskStates

# Where the portal serves its embedded provider.
PROVIDER_PREFIX = "/provider"


class ProviderFirst:
    """``mount``'s requests to its app under the drain counter; everything else (websockets,
    the lifespan, the portal's pages and routes) to ``portal``."""

    def __init__(self, portal: ASGIApp, mount: Mount) -> None:
        self.portal = portal
        self.mount = mount
        self.provider = DrainMiddleware(mount.app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            # The mount's own match, so the prefix and the scope it hands down (the root path
            # the provider's cookies are set on) are the mount's, as they were under the backend.
            match, child = self.mount.matches(scope)
            if match is Match.FULL:
                await self.provider({**scope, **child}, receive, send)
                return
        await self.portal(scope, receive, send)


class PortalApp(rx.App):
    """Reflex's app; what it serves takes ``provider_mount``'s requests first when one is set."""

    provider_mount: Mount | None = None

    def _setup_state(self) -> None:
        super()._setup_state()
        if type(self._state_manager) is StateManagerDisk:
            # Reflex's StateManager declares overloads before its abstract methods of the same
            # names, which mypy reads as abstract redefinitions; at run time none is left.
            self._state_manager = DiskStates()  # type: ignore[abstract]

    def __call__(self) -> ASGIApp:
        served = super().__call__()
        if self.provider_mount is None:
            return served
        return ProviderFirst(served, self.provider_mount)
