"""Single sign-on in the portal (issue 52): the client's three calls as the provider spells
them, and the portal's start and callback routes: the start only from the portal's own pages,
the callback only for a ``state`` this browser started (a link of another site cannot sign
the user in as someone else), a failure sent back to the login page by its kind."""

import json
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from portal import routes, sso_web
from portal.client import ProviderClient, ProviderError
from portal.client.errors import Forbidden
from portal.session_store import COOKIE_NAME

BASE_URL = "http://provider.test/provider"


def client_answering(requests: list[httpx.Request], response: httpx.Response) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return response

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_lookup_start_and_finish_speak_the_provider_contract() -> None:
    requests: list[httpx.Request] = []
    answer = httpx.Response(200, json={"sso": True, "passwordAllowed": False})
    async with client_answering(requests, answer) as client:
        found = await client.auth.sso_lookup("sara@acme-sso.test")
    assert (found.sso, found.password_allowed) == (True, False)
    assert requests[-1].url.path == "/provider/login/sso/lookup"
    assert json.loads(requests[-1].content) == {"email": "sara@acme-sso.test"}

    answer = httpx.Response(200, json={"authorizationUrl": "https://idp.test/a?x=1", "state": "s"})
    async with client_answering(requests, answer) as client:
        started = await client.auth.sso_start("sara@acme-sso.test", "http://portal.test/cb")
    assert (started.authorization_url, started.state) == ("https://idp.test/a?x=1", "s")
    body = json.loads(requests[-1].content)
    assert body == {"email": "sara@acme-sso.test", "redirectUri": "http://portal.test/cb"}

    answer = httpx.Response(204, headers={"Location": "/api/users/u-9"})
    async with client_answering(requests, answer) as client:
        assert await client.auth.sso_finish("s", "the-code") == "u-9"
    assert requests[-1].url.path == "/provider/login/sso/finish"
    assert json.loads(requests[-1].content) == {"state": "s", "code": "the-code", "error": ""}


async def test_a_refusal_keeps_its_kind() -> None:
    body = {"status": 403, "detail": "Unverified", "code": "sso_unverified"}
    async with client_answering([], httpx.Response(403, json=body)) as client:
        with pytest.raises(Forbidden) as refused:
            await client.auth.sso_finish("s", "c")
    assert refused.value.error_code == "sso_unverified"


@pytest.fixture
def browser() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(sso_web.router)
    with TestClient(app, follow_redirects=False) as client:
        yield client


def _failure_of(response: httpx.Response) -> str:
    assert response.status_code == 303
    location = httpx.URL(response.headers["location"])
    assert location.path == routes.LOGIN.path
    return location.params[routes.SSO_FAILURE]


@pytest.mark.parametrize(
    "cookie", [None, "another-state|%2F", "|%2F"], ids=["none", "another", "empty"]
)
def test_the_callback_takes_only_a_state_this_browser_started(
    browser: TestClient, cookie: str | None
) -> None:
    if cookie is not None:
        browser.cookies.set(sso_web.SSO_COOKIE, cookie, path=sso_web.SSO_COOKIE_PATH)
    answer = browser.get(routes.SSO_CALLBACK_PATH, params={"state": "the-state", "code": "c"})
    assert _failure_of(answer) == "sso_state"
    assert COOKIE_NAME not in answer.headers.get("set-cookie", "")


def test_the_start_answers_only_the_portals_own_pages(browser: TestClient) -> None:
    answer = browser.get(
        routes.SSO_START_PATH,
        params={"email": "sara@acme-sso.test"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert answer.status_code == 403


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (ProviderError(0, "network", "down"), "sso_unreachable"),
        (ProviderError(502, "x", "down", error_code="sso_unreachable"), "sso_unreachable"),
        (ProviderError(400, "x", "no", error_code="sso_domain"), "sso_domain"),
        (ProviderError(400, "x", "bad"), "sso_failed"),
    ],
)
def test_a_failure_is_named_by_its_kind(error: ProviderError, kind: str) -> None:
    assert sso_web._failure(error) == kind
