"""The user's address behind the reverse proxy (issue 47, item 13): X-Forwarded-For is believed
only from TRUSTED_PROXIES, read from the right; a client that sends it itself gets nothing of it.
tests/deployment/test_two_instances.py holds the same through nginx."""

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from portal.edge import ForwardedClient
from portal.forwarded import TrustedProxies
from portal.settings import Settings

NGINX = "127.0.0.1"
PROXIES = TrustedProxies([NGINX, "::1", "10.0.0.0/8"])


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        # A user through nginx, which appends the address it was reached from.
        (NGINX, "203.0.113.5", "203.0.113.5"),
        # The user wrote a header of their own: nginx's entry is to the right of it.
        (NGINX, "198.51.100.1, 203.0.113.5", "203.0.113.5"),
        # A load balancer of the trusted network in front of nginx.
        (NGINX, "203.0.113.5, 10.0.0.7", "203.0.113.5"),
        # A peer that is no proxy is the user, whatever it says.
        ("203.0.113.5", "198.51.100.1", "203.0.113.5"),
        ("203.0.113.5", "", "203.0.113.5"),
        # Nothing forwarded: nginx itself (a health check on the machine).
        (NGINX, "", NGINX),
        # Only proxies in the chain: the left-most is the one that started it.
        (NGINX, "10.0.0.8, 127.0.0.1", "10.0.0.8"),
        # Something no proxy writes ends the trust at the proxy that passed it on.
        (NGINX, "203.0.113.5, not-an-address", NGINX),
        ("::ffff:127.0.0.1", "203.0.113.5", "203.0.113.5"),
        (None, "203.0.113.5", None),
    ],
)
def test_the_client_is_the_right_most_address_no_trusted_proxy_wrote(
    peer: str | None, forwarded_for: str, client: str | None
) -> None:
    assert PROXIES.client_address(peer, forwarded_for) == client


def test_a_trusted_proxy_that_is_no_address_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="trusted_proxies"):
        Settings(trusted_proxies=["nginx.internal"])


async def _client_of_request(request: Request) -> PlainTextResponse:
    return PlainTextResponse(request.client.host if request.client else "")


async def _client_of_websocket(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_text(websocket.client.host if websocket.client else "")
    await websocket.close()


def _behind(peer: str) -> TestClient:
    app = Starlette(
        routes=[
            Route("/login", _client_of_request),
            WebSocketRoute("/_event/", _client_of_websocket),
        ]
    )
    return TestClient(ForwardedClient(app, PROXIES), client=(peer, 40000))


def test_the_portal_sees_the_user_behind_nginx_on_pages_and_the_websocket() -> None:
    through_nginx = _behind(NGINX)
    headers = {"X-Forwarded-For": "198.51.100.1, 203.0.113.5"}
    assert through_nginx.get("/login", headers=headers).text == "203.0.113.5"
    with through_nginx.websocket_connect("/_event/", headers=headers) as socket:
        assert socket.receive_text() == "203.0.113.5"


def test_a_client_talking_to_the_portal_directly_cannot_pick_its_address() -> None:
    direct = _behind("203.0.113.5")
    headers = {"X-Forwarded-For": "198.51.100.1"}
    assert direct.get("/login", headers=headers).text == "203.0.113.5"
    with direct.websocket_connect("/_event/", headers=headers) as socket:
        assert socket.receive_text() == "203.0.113.5"
