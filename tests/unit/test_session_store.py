"""Portal sessions: hashed tokens, timeouts and one-time claim tickets, on SQLite and Redis."""

import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from portal.session_store import PortalSession, RedisBackend, SessionStore, SqliteBackend
from portal.settings import Settings


def _settings(tmp_path: Path) -> Settings:
    return Settings(portal_session_db=tmp_path / "sessions.db", redis_url="")


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SessionStore]:
    settings = _settings(tmp_path)
    if request.param == "sqlite":
        yield SessionStore(settings, SqliteBackend(settings.portal_session_db))
        return
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("REDIS_URL is not set; CI runs this against its Redis")
    yield SessionStore(settings, RedisBackend(url))


async def test_a_session_is_found_by_its_token_only(store: SessionStore) -> None:
    token = await store.create(PortalSession(user_id="u1", provider_cookies={"a": "b"}))
    session = await store.load(token)
    assert session is not None
    assert session.user_id == "u1"
    assert session.provider_cookies == {"a": "b"}
    assert await store.load(token + "x") is None
    assert await store.load("") is None


async def test_tokens_are_stored_hashed(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    store = SessionStore(settings, SqliteBackend(settings.portal_session_db))
    token = await store.create(PortalSession(user_id="u1", provider_cookies={}))
    assert token.encode() not in (tmp_path / "sessions.db").read_bytes()


async def test_idle_and_absolute_timeouts_end_a_session(store: SessionStore) -> None:
    idle = PortalSession(user_id="u1", provider_cookies={}, last_seen_at=time.time() - 31 * 60)
    old = PortalSession(user_id="u1", provider_cookies={}, created_at=time.time() - 13 * 3600)
    assert await store.load(await store.create(idle)) is None
    assert await store.load(await store.create(old)) is None


async def test_destroy_ends_a_session(store: SessionStore) -> None:
    token = await store.create(PortalSession(user_id="u1", provider_cookies={}))
    await store.destroy(token)
    assert await store.load(token) is None


async def test_a_claim_ticket_is_redeemed_once(store: SessionStore) -> None:
    token = await store.create(PortalSession(user_id="u1", provider_cookies={}))
    ticket = await store.issue_claim_ticket(token)
    assert await store.redeem_claim_ticket(ticket) == token
    assert await store.redeem_claim_ticket(ticket) is None
