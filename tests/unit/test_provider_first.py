"""The embedded provider served before the portal's stack (issue 55, ``portal.provider_first``):
a request under ``/provider/`` reaches the provider with its own peer and the mount's root
path, counted by the drain and closing its connection once the worker stops, and without
crossing the portal's middlewares; everything else is the portal's."""

import httpx
import pytest
import sqlalchemy as sa
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from portal import drain
from portal.edge import ForwardedClient
from portal.forwarded import TrustedProxies
from portal.logs import REQUEST_ID_HEADER
from portal.provider.main import ProviderMount, create_app
from portal.provider_first import PROVIDER_PREFIX, ProviderFirst
from portal.request_timing import SERVED_BY_HEADER

NGINX = "127.0.0.1"


pytestmark = pytest.mark.usefixtures("serving_worker")


async def _seen_by_provider(request: Request) -> JSONResponse:
    return JSONResponse(
        {
            "client": request.client.host if request.client else None,
            "root_path": request.scope["root_path"],
            "path": request.url.path,
            "in_progress": drain.worker.requests_in_progress,
        }
    )


class Portal:
    """The portal's side as ``portal.portal`` stacks it at its edge (the forwarded client
    first), recording what reached it."""

    def __init__(self) -> None:
        self.reached: list[Scope] = []

        async def own(request: Request) -> PlainTextResponse:
            return PlainTextResponse(request.client.host if request.client else "")

        self.app = ForwardedClient(
            Starlette(routes=[Route("/{path:path}", own)]), TrustedProxies([NGINX])
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.reached.append(scope)
        if scope["type"] == "http":  # a websocket or the lifespan: only seen arriving
            await self.app(scope, receive, send)


def _served(portal: Portal) -> ProviderFirst:
    provider = Starlette(routes=[Route("/{rest:path}", _seen_by_provider)])
    return ProviderFirst(portal, ProviderMount(PROVIDER_PREFIX, provider))


async def _get(app: ProviderFirst, path: str, **headers: str) -> httpx.Response:
    transport = httpx.ASGITransport(app, client=(NGINX, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://portal") as client:
        return await client.get(path, headers=headers)


async def test_a_provider_request_skips_the_portal_and_judges_its_own_peer() -> None:
    """The portal's backend calls /provider from the loopback with the user's address; the
    provider reads it itself (its secure-cookie rule needs to see the portal as the peer)."""
    portal = Portal()
    answer = await _get(_served(portal), "/provider/login", **{"X-Forwarded-For": "203.0.113.5"})
    assert answer.json() == {
        "client": NGINX,
        "root_path": PROVIDER_PREFIX,
        "path": "/provider/login",
        "in_progress": 1,
    }
    assert portal.reached == []
    assert drain.worker.requests_in_progress == 0


async def test_every_other_request_is_the_portal_s() -> None:
    portal = Portal()
    served = _served(portal)
    forwarded = {"X-Forwarded-For": "203.0.113.5"}
    for path in ("/login", "/providers", "/_portal/files/provider/x"):
        assert (await _get(served, path, **forwarded)).text == "203.0.113.5", path
    # The prefix alone is not under the mount (its router redirects it): the portal answers it.
    await _get(served, PROVIDER_PREFIX)
    assert [scope["path"] for scope in portal.reached][-1] == PROVIDER_PREFIX

    async def receive() -> Message:
        raise AssertionError

    async def send(message: Message) -> None:
        raise AssertionError

    # A websocket is the portal's whatever its path (Reflex's events); so is the lifespan.
    for scope in ({"type": "websocket", "path": "/provider/x"}, {"type": "lifespan"}):
        await served(scope, receive, send)
        assert portal.reached[-1] is scope


async def test_a_stopping_worker_closes_the_connection_of_a_provider_answer() -> None:
    served = _served(Portal())
    assert "close" not in (await _get(served, "/provider/api/x")).headers.get("connection", "")
    drain.worker.phase = drain.Phase.DRAINING
    assert (await _get(served, "/provider/api/x")).headers.get_list("connection") == ["close"]


async def test_the_provider_answers_with_its_request_id_and_the_instance() -> None:
    """The headers the portal's edge gave a provider answer come from the provider's own
    middleware; a path holding a line break still reaches it (``ProviderMount``)."""
    engine = sa.create_engine("sqlite://")
    served = ProviderFirst(Portal(), ProviderMount(PROVIDER_PREFIX, create_app(engine)))
    for path, status in (("/provider/api/users", 401), ("/provider/api/users/%0A", 404)):
        answer = await _get(served, path, **{REQUEST_ID_HEADER: "proxy-1234abcd"})
        assert answer.status_code == status, path
        assert answer.headers["content-type"].startswith("application/ld+json")
        assert answer.headers[REQUEST_ID_HEADER] == "proxy-1234abcd"
        assert answer.headers[SERVED_BY_HEADER]
    engine.dispose()
