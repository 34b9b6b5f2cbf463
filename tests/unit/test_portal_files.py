"""The portal's file route: provider documents and exports reach the browser only through a
live portal session, only from the provider's API, streamed with their name and type."""

from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from portal import routes, web
from portal.client import ProviderClient
from portal.session_store import COOKIE_NAME, PortalSession

GOOD_TOKEN = "live-session-token"
CSV = "\ufeffreference;clientReferences\r\nPB-1;a\r\n".encode()


class FakeStore:
    async def load(self, token: str) -> PortalSession | None:
        return (
            PortalSession("u1", {"PATCHBAY_PROVIDER_SESSION": "p"}) if token == GOOD_TOKEN else None
        )


@pytest.fixture
def provider_requests(monkeypatch: pytest.MonkeyPatch) -> list[httpx.Request]:
    requests: list[httpx.Request] = []

    def provider(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if request.url.path.endswith("/foreign"):
            return httpx.Response(404, json={"detail": "Not Found"})
        if request.url.path.endswith("/order_pdf"):
            return httpx.Response(403, json={"detail": "Access Denied."})
        if request.url.path.endswith("/moved"):
            return httpx.Response(302, headers={"Location": "/provider/api/users"})
        return httpx.Response(
            200,
            stream=httpx.ByteStream(CSV),
            headers={
                "Content-Type": "text/csv; charset=utf-8",
                "Content-Disposition": 'attachment; filename="export_services.csv"',
                "Set-Cookie": "PATCHBAY_PROVIDER_SESSION=rotated; Path=/",
            },
        )

    client = ProviderClient(
        "http://provider.test/provider", transport=httpx.MockTransport(provider)
    )
    monkeypatch.setattr(web, "session_store", FakeStore)
    monkeypatch.setattr(
        web,
        "session_client",
        lambda token, session, language, address: client.for_caller(language, address),
    )
    return requests


@pytest.fixture
def browser() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(web.router)
    with TestClient(app) as client:
        yield client


def test_without_a_portal_session_nothing_is_fetched(
    browser: TestClient, provider_requests: list[httpx.Request]
) -> None:
    assert browser.get("/_portal/files/api/services/export").status_code == 401
    browser.cookies.set(COOKIE_NAME, "expired")
    assert browser.get("/_portal/files/api/services/export").status_code == 401
    assert provider_requests == []


def test_the_export_streams_with_its_query_name_and_type(
    browser: TestClient, provider_requests: list[httpx.Request]
) -> None:
    browser.cookies.set(COOKIE_NAME, GOOD_TOKEN)
    url = routes.file_path(
        "/api/services/export",
        [("search", "lyon"), ("status[]", "active"), ("status[]", "terminated"), ("_lang", "fr")],
    )
    assert url == (
        "/_portal/files/api/services/export"
        "?search=lyon&status[]=active&status[]=terminated&_lang=fr"
    )

    answer = browser.get(url)

    assert answer.status_code == 200
    assert answer.content == CSV
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.headers["content-disposition"] == 'attachment; filename="export_services.csv"'
    assert "set-cookie" not in answer.headers
    (request,) = provider_requests
    assert request.url.path == "/provider/api/services/export"
    assert request.url.params.multi_items() == [
        ("search", "lyon"),
        ("status[]", "active"),
        ("status[]", "terminated"),
    ]
    assert request.headers["Accept-Language"] == "fr"


@pytest.mark.parametrize(
    "path",
    [
        "/_portal/files/logout",
        "/_portal/files/provider/api/services",
        "/_portal/files/api/../logout",
        "/_portal/files/api/%2e%2e/logout",
        "/_portal/files/api//services",
        # A delimiter decoded by the portal would be read again by the provider: a JSON read.
        "/_portal/files/api/services/s1%3Fx=/order_pdf",
        "/_portal/files/api/services/s1%23/order_pdf",
        "/_portal/files/api/services/s1%3f/documents/d1",
        # One segment that is two.
        "/_portal/files/api/services%2Fexport",
        "/_portal/files/api/invoices/i1%2F..%2F..%2Fusers/pdf",
        # Encoded twice: decoded once here, once more by the provider.
        "/_portal/files/api/services/s1%253F/order_pdf",
        "/_portal/files/api/services/%252e%252e/documents/d1",
        "/_portal/files/api/invoices/%2e/pdf",
        "/_portal/files/api/invoices/i1%5C..%5Cusers/pdf",
    ],
)
def test_only_the_providers_api_can_be_reached(
    browser: TestClient, provider_requests: list[httpx.Request], path: str
) -> None:
    browser.cookies.set(COOKIE_NAME, GOOD_TOKEN)
    assert browser.get(path).status_code == 404
    assert provider_requests == []


def test_provider_refusals_keep_their_status(
    browser: TestClient, provider_requests: list[httpx.Request]
) -> None:
    browser.cookies.set(COOKIE_NAME, GOOD_TOKEN)
    assert browser.get("/_portal/files/api/services/s1/documents/foreign").status_code == 404
    assert browser.get("/_portal/files/api/services/s1/order_pdf").status_code == 403


def test_a_provider_redirect_is_refused_not_followed(
    browser: TestClient, provider_requests: list[httpx.Request]
) -> None:
    """A redirect is no file: passing it on gave the browser an empty 200, following it could
    lead anywhere the provider points."""
    browser.cookies.set(COOKIE_NAME, GOOD_TOKEN)
    answer = browser.get("/_portal/files/api/services/s1/documents/moved", follow_redirects=False)
    assert answer.status_code == 502
    assert "location" not in answer.headers
    assert [request.url.path for request in provider_requests] == [
        "/provider/api/services/s1/documents/moved"
    ]


def test_only_get_is_served(browser: TestClient, provider_requests: list[httpx.Request]) -> None:
    browser.cookies.set(COOKIE_NAME, GOOD_TOKEN)
    assert browser.post("/_portal/files/api/services/export").status_code == 405
    assert provider_requests == []
