"""Issue 18, item 1: every /_portal route answers only the portal's own pages. A page on another
origin must not log the user out, hand a claim ticket to their browser or fetch their
documents, whatever cookie the browser attaches. Reflex's upload route answers only the tab's
own portal session (issue 47, item 11)."""

from collections.abc import Awaitable, Callable, Iterator

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from redis.exceptions import ConnectionError as RedisConnectionError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from portal import routes, web
from portal.client import ProviderClient
from portal.session_store import COOKIE_NAME, PortalSession
from portal.state.session_binding import UploadCookieCheck

OWN = "http://localhost:3000"  # the origin of the default PORTAL_PUBLIC_URL

ROUTES = [
    routes.SESSION_END_PATH,
    f"{routes.SESSION_CLAIM_PATH}?ticket=abc",
    f"{routes.FILES_PATH}/api/services/export",
    routes.USER_DOCUMENTATION_EN,
]


@pytest.fixture
def browser() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(web.router)
    with TestClient(app, follow_redirects=False) as client:
        yield client


@pytest.mark.parametrize("path", ROUTES)
@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Referer": "https://evil.example/attack.html"},
        {"Referer": "http://localhost:3001/"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_foreign_page_is_refused(browser: TestClient, path: str, headers: dict[str, str]) -> None:
    method = "POST" if path == routes.SESSION_END_PATH else "GET"
    response = browser.request(method, path, headers=headers)
    assert response.status_code == 403
    assert "set-cookie" not in response.headers


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a typed URL, a bookmark
        {"Referer": f"{OWN}/services"},
        {"Origin": OWN},
        {"Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},
    ],
)
def test_the_portals_own_pages_are_served(browser: TestClient, headers: dict[str, str]) -> None:
    response = browser.post(routes.SESSION_END_PATH, headers=headers)
    assert response.status_code == 303


def test_logout_answers_no_get(browser: TestClient) -> None:
    """Issue 18, item 8: a link or an image must not end a session."""
    browser.cookies.set("patchbay_session", "some-token")
    response = browser.get(routes.SESSION_END_PATH)
    assert response.status_code == 405
    assert "set-cookie" not in response.headers


class _Store:
    async def load(self, token: str) -> PortalSession | None:
        return PortalSession("u1", {"PATCHBAY_PROVIDER_SESSION": "p"}) if token == "live" else None


@pytest.fixture
def forwarded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The provider paths the file route forwards, answered by a provider of PDFs."""
    paths: list[str] = []

    def provider(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return httpx.Response(200, content=b"%PDF-1.4", headers={"Content-Type": "application/pdf"})

    client = ProviderClient(
        "http://provider.test/provider", transport=httpx.MockTransport(provider)
    )
    monkeypatch.setattr(web, "session_store", _Store)
    monkeypatch.setattr(web, "session_client", lambda *args: client)
    return paths


@pytest.mark.parametrize(
    "path",
    [
        "api?_impersonate=alice@acme-networks.test",  # item 8: a link started an impersonation
        "api/users",
        "api/users/1",
        "api/services",
        "api/invoices/1",
        "api/invoices/1/pdf/extra",
        "logout",
    ],
)
def test_the_file_route_forwards_only_document_downloads(
    browser: TestClient, forwarded: list[str], path: str
) -> None:
    browser.cookies.set(COOKIE_NAME, "live")
    assert browser.get(f"{routes.FILES_PATH}/{path}").status_code == 404
    assert forwarded == []


@pytest.mark.parametrize("encoded", ["%00", "%09", "%7f", "%0a", "x%00y"])
def test_control_characters_in_a_file_path_are_a_404(
    browser: TestClient, forwarded: list[str], encoded: str
) -> None:
    browser.cookies.set(COOKIE_NAME, "live")
    answer = browser.get(f"{routes.FILES_PATH}/api/invoices/{encoded}/pdf")
    assert answer.status_code == 404
    assert forwarded == []


@pytest.mark.parametrize(
    "path",
    [
        "api/invoices/0b6f/pdf",
        "api/services/export",
        "api/services/client_reference/download_csv",
        "api/services/0b6f/order_pdf",
        "api/services/0b6f/documents/77",
        "api/termination_documents/5/file",
        "api/tickets/9/attachments/3",
    ],
)
def test_document_downloads_still_pass(
    browser: TestClient, forwarded: list[str], path: str
) -> None:
    browser.cookies.set(COOKIE_NAME, "live")
    answer = browser.get(f"{routes.FILES_PATH}/{path}")
    assert answer.status_code == 200
    assert forwarded == [f"/provider/{path}"]


async def _upload_accepted(request: Request) -> PlainTextResponse:
    return PlainTextResponse("handled")


def _upload_route(proves: Callable[[str, str], Awaitable[bool]]) -> TestClient:
    app = Starlette(routes=[Route("/_upload", _upload_accepted, methods=["POST"])])
    return TestClient(UploadCookieCheck(app, proves))


async def _alices_tab(token: str, cookie_header: str) -> bool:
    return token == "alices-tab" and f"{COOKIE_NAME}=alices-session" in cookie_header


@pytest.mark.parametrize(
    ("cookies", "status"),
    [({}, 401), ({COOKIE_NAME: "mallorys-session"}, 403), ({COOKIE_NAME: "alices-session"}, 200)],
)
def test_an_upload_proves_the_session_of_the_tab_it_names(
    cookies: dict[str, str], status: int
) -> None:
    """Issue 47, item 11: Reflex's upload route runs its handler on the state of the token
    it is given; only the tab's own portal session may name it (browser test: test_security)."""
    route = _upload_route(_alices_tab)
    route.cookies.update(cookies)
    answer = route.post(
        "/_upload", headers={"reflex-client-token": "alices-tab"}, files={"files": ("a.csv", b"x")}
    )
    assert answer.status_code == status
    assert (answer.text == "handled") is (status == 200)


def test_an_upload_while_redis_is_down_is_a_503() -> None:
    async def unreachable(token: str, cookie_header: str) -> bool:
        raise RedisConnectionError("Connection refused")

    route = _upload_route(unreachable)
    route.cookies.set(COOKIE_NAME, "alices-session")
    answer = route.post("/_upload", headers={"reflex-client-token": "alices-tab"})
    assert answer.status_code == 503
