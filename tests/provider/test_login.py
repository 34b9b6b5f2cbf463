"""Login and logout (spec section 7, DESIGN section 4): cookie, errors, audit, rotation."""

import httpx
import pytest
from sqlmodel import Session, col, select

from portal.provider.platform.models import AuditLog, ProviderSession
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from tests.provider.conftest import PASSWORD, SignIn, World


async def test_login_answers_204_with_the_users_iri_and_an_http_only_cookie(
    client: httpx.AsyncClient, world: World
) -> None:
    response = await client.post(
        "/login", json={"username": "alice@acme-networks.test", "password": PASSWORD}
    )
    assert response.status_code == 204
    assert response.content == b""
    assert response.headers["Location"] == f"/api/users/{world.users['alice']}"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}=")
    assert "HttpOnly" in cookie
    assert "SameSite=lax" in cookie
    assert "Path=/provider" in cookie
    assert "Secure" not in cookie  # development; see test_production_cookie_is_secure


async def test_login_ignores_the_case_and_spaces_of_the_email(
    client: httpx.AsyncClient, world: World
) -> None:
    response = await client.post(
        "/login", json={"username": "  Alice@ACME-Networks.test ", "password": PASSWORD}
    )
    assert response.status_code == 204


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("alice@acme-networks.test", "wrong password"),
        ("nobody@acme-networks.test", PASSWORD),
        ("gone@example.test", PASSWORD),  # an inactive account
    ],
)
@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "Invalid credentials."), ("fr-FR,fr;q=0.9", "Identifiants invalides.")],
)
async def test_failed_login_answers_401_with_the_same_translated_message(
    client: httpx.AsyncClient,
    world: World,
    username: str,
    password: str,
    language: str,
    message: str,
) -> None:
    response = await client.post(
        "/login",
        json={"username": username, "password": password},
        headers={"Accept-Language": language},
    )
    assert response.status_code == 401
    body = response.json()
    assert body["@type"] == "hydra:Error"
    assert body["status"] == 401
    assert body["detail"] == body["hydra:description"] == message
    assert "set-cookie" not in response.headers


async def test_login_success_and_failure_are_audited(
    client: httpx.AsyncClient, world: World
) -> None:
    await client.post("/login", json={"username": "bob@example.test", "password": "nope"})
    await client.post(
        "/login",
        json={"username": "bob@example.test", "password": PASSWORD},
        headers={"X-Forwarded-For": "198.51.100.7"},
    )
    with Session(world.engine) as session:
        entries = session.exec(
            select(AuditLog)
            .where(col(AuditLog.action).in_(["login", "login_failed"]))
            .order_by(col(AuditLog.at))
        ).all()
    bob = world.users["bob"]
    failed = [entry for entry in entries if entry.action == "login_failed"]
    succeeded = [entry for entry in entries if entry.action == "login" and entry.actor_id == bob]
    assert any(entry.subject_id == bob for entry in failed)
    # The test client's address is a trusted proxy, so its X-Forwarded-For is the user's.
    assert succeeded[-1].client_address == "198.51.100.7"
    assert succeeded[-1].detail["actor_email"] == "bob@example.test"


@pytest.mark.parametrize(
    ("language", "blank"),
    [("en", "This value should not be blank."), ("fr", "Cette valeur ne doit pas être vide.")],
)
async def test_a_malformed_login_body_answers_422_with_violations(
    client: httpx.AsyncClient, world: World, language: str, blank: str
) -> None:
    response = await client.post(
        "/login", json={"username": ""}, headers={"Accept-Language": language}
    )
    assert response.status_code == 422
    body = response.json()
    assert body["@context"] == "/api/contexts/Error"
    assert body["@type"] == "hydra:Error"
    assert body["detail"] == body["hydra:description"]
    assert body["title"] == body["hydra:title"]
    assert body["violations"] == [
        {"propertyPath": "username", "message": blank},
        {"propertyPath": "password", "message": blank},
    ]


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b"{not json", 400),
        (b"", 422),
        (b"[]", 422),
        (b'"text"', 422),
        (b'{"username": 12, "password": ["x"]}', 422),
        (b'{"username": "a@b.c", "password": "' + b"x" * 5000 + b'"}', 422),
    ],
)
async def test_garbage_login_bodies_answer_4xx(
    client: httpx.AsyncClient, world: World, content: bytes, status: int
) -> None:
    response = await client.post(
        "/login", content=content, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status
    assert response.json()["status"] == status


async def test_login_rotates_the_session(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    first = (await sign_in("alice")).cookies[COOKIE_NAME]
    second = (await sign_in("alice")).cookies[COOKIE_NAME]
    assert first != second
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token_hash(first)) is None
        assert session.get(ProviderSession, token_hash(second)) is not None
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, first)
    assert (await client.get("/api/users")).status_code == 401


async def test_the_session_token_is_stored_hashed(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    token = (await sign_in("alice")).cookies[COOKIE_NAME]
    assert len(token) >= 43  # 256 random bits, base64url
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token) is None
        stored = session.get_one(ProviderSession, token_hash(token))
        assert stored.user_id == world.users["alice"]


async def test_logout_ends_the_session_and_expires_the_cookie(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    token = (await sign_in("bob")).cookies[COOKIE_NAME]
    response = await client.post("/logout")
    assert response.status_code == 204
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f'{COOKIE_NAME}=""') or cookie.startswith(f"{COOKIE_NAME}=;")
    assert "Max-Age=0" in cookie
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token_hash(token)) is None
    client.cookies.set(COOKIE_NAME, token)
    assert (await client.get("/api/users")).status_code == 401


async def test_logout_without_a_session_is_harmless(client: httpx.AsyncClient) -> None:
    assert (await client.post("/logout")).status_code == 204


async def test_a_get_of_logout_ends_nothing(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Issue 18, item 8: logout is a POST, which another site's page cannot send (origin check);
    a GET (a link, an image) is 405 and the session lives on."""
    token = (await sign_in("bob")).cookies[COOKIE_NAME]
    assert (await client.get("/logout")).status_code == 405
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token_hash(token)) is not None
    assert (await client.get("/api/users")).status_code == 200
    foreign = await client.post("/logout", headers={"Origin": "https://evil.test"})
    assert foreign.status_code == 403
    assert (await client.get("/api/users")).status_code == 200
