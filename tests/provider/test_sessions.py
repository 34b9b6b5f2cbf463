"""Session lifetime (DESIGN section 4): idle and absolute timeouts, throttled bookkeeping, and
the cookie and headers outside development."""

from collections.abc import Iterator
from datetime import datetime, timedelta

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, col, select

from portal.provider.main import create_app
from portal.provider.platform.models import AuditLog, ProviderSession, User, utcnow
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from portal.settings import get_settings
from tests.provider.conftest import BASE_URL, PASSWORD, SignIn, World


def _shift(world: World, token: str, *, created: timedelta, last_seen: timedelta) -> None:
    """Make the session look as if it was created and last used that long ago."""
    with Session(world.engine) as session:
        stored = session.get_one(ProviderSession, token_hash(token))
        stored.created_at = utcnow() - created
        stored.last_seen_at = utcnow() - last_seen
        session.add(stored)
        session.commit()


def _last_seen(world: World, token: str) -> datetime:
    with Session(world.engine) as session:
        return session.get_one(ProviderSession, token_hash(token)).last_seen_at


async def test_a_session_idle_longer_than_the_limit_is_over(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    token = (await sign_in("alice")).cookies[COOKIE_NAME]
    idle = get_settings().session_idle_minutes
    _shift(world, token, created=timedelta(minutes=idle + 1), last_seen=timedelta(minutes=idle - 1))
    assert (await client.get("/api/users")).status_code == 200
    _shift(world, token, created=timedelta(minutes=idle + 2), last_seen=timedelta(minutes=idle + 1))
    response = await client.get("/api/users")
    assert response.status_code == 401
    assert response.json()["@type"] == "hydra:Error"
    with Session(world.engine) as session:
        assert session.get(ProviderSession, token_hash(token)) is None


async def test_a_session_older_than_the_absolute_limit_is_over_even_if_active(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    token = (await sign_in("alice")).cookies[COOKIE_NAME]
    hours = get_settings().session_absolute_hours
    _shift(world, token, created=timedelta(hours=hours, minutes=1), last_seen=timedelta())
    assert (await client.get("/api/users")).status_code == 401


async def test_last_seen_is_written_at_most_once_a_minute(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    token = (await sign_in("alice")).cookies[COOKIE_NAME]
    _shift(world, token, created=timedelta(minutes=5), last_seen=timedelta(seconds=30))
    before = _last_seen(world, token)
    await client.get("/api/users")
    assert _last_seen(world, token) == before
    _shift(world, token, created=timedelta(minutes=5), last_seen=timedelta(minutes=2))
    before = _last_seen(world, token)
    await client.get("/api/users")
    assert _last_seen(world, token) > before


async def test_a_deactivated_user_loses_their_session(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    leaver = world.add_user("leaver", "acme", roles=("ROLE_ACCESS_MONITORING",))
    await sign_in("leaver")
    assert (await client.get(f"/api/users/{leaver}")).status_code == 200
    with Session(world.engine) as session:
        user = session.get_one(User, leaver)
        user.is_active = False
        session.add(user)
        session.commit()
    assert (await client.get(f"/api/users/{leaver}")).status_code == 401


@pytest.fixture
def production(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", "a-test-secret")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


async def test_outside_development_the_cookie_is_secure_and_hsts_is_sent(
    engine: sa.Engine, world: World, production: None
) -> None:
    parent = FastAPI()
    parent.mount("/provider", create_app(engine))
    # A browser talking to the provider directly, not through the trusted portal backend.
    transport = httpx.ASGITransport(parent, client=("203.0.113.9", 50000))
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as browser:
        response = await browser.post(
            "/login",
            json={"username": "alice@acme-networks.test", "password": PASSWORD},
            headers={"X-Forwarded-For": "192.0.2.1"},
        )
    assert response.status_code == 204
    assert "Secure" in response.headers["set-cookie"]
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    with Session(engine) as session:
        last_login = session.exec(
            select(AuditLog).where(AuditLog.action == "login").order_by(col(AuditLog.at).desc())
        ).first()
    # The forwarded address of an untrusted peer is ignored.
    assert last_login is not None
    assert last_login.client_address == "203.0.113.9"


async def test_the_portal_backend_on_loopback_gets_a_cookie_it_can_send_back(
    engine: sa.Engine, world: World, production: None
) -> None:
    parent = FastAPI()
    parent.mount("/provider", create_app(engine))
    transport = httpx.ASGITransport(parent, client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as portal:
        response = await portal.post(
            "/login", json={"username": "alice@acme-networks.test", "password": PASSWORD}
        )
        assert "Secure" not in response.headers["set-cookie"]
        assert (await portal.get("/api/users")).status_code == 200
