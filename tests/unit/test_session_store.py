"""Portal sessions: hashed tokens, timeouts and one-time claim tickets, on SQLite and Redis."""

import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from portal.session_store import (
    Claim,
    PortalSession,
    RedisBackend,
    SessionStore,
    SqliteBackend,
    _digest,
)
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
    assert await store.redeem_claim_ticket(ticket) == Claim(token)
    assert await store.redeem_claim_ticket(ticket) is None


def _modes(tmp_path: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mode & 0o777 for p in tmp_path.glob("sessions.db*")}


def _store_bytes(tmp_path: Path) -> bytes:
    """Everything SQLite wrote: the database and its write-ahead log."""
    return b"".join(p.read_bytes() for p in sorted(tmp_path.glob("sessions.db*")))


async def test_the_store_holds_no_usable_token(store: SessionStore, tmp_path: Path) -> None:
    """Issue 18, item 8: the claim ticket's row held the session token in clear, and the session
    row the provider cookie. Only hashes and sealed values are stored now."""
    provider_cookie = "provider-session-" + "p" * 40
    token = await store.create(
        PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": provider_cookie})
    )
    device_cookie = "provider-device-" + "d" * 40
    device = await store.remember_device({"PATCHBAY_PROVIDER_DEVICE": device_cookie})
    ticket = await store.issue_claim_ticket(token, device)
    backend = store._backend
    if isinstance(backend, SqliteBackend):
        written = _store_bytes(tmp_path)
    else:
        redis = backend._redis
        keys = [
            f"patchbay:session:{_digest(token)}",
            f"patchbay:claim:{_digest(ticket)}",
            f"patchbay:device:{_digest(device)}",
        ]
        written = "".join([*keys, *[str(await redis.get(k)) for k in keys]]).encode()
    for secret in (token, ticket, provider_cookie, device, device_cookie):
        assert secret.encode() not in written
    assert await store.redeem_claim_ticket(ticket) == Claim(token, device)
    loaded = await store.load(token)
    assert loaded is not None
    assert loaded.provider_cookies == {"PATCHBAY_PROVIDER_SESSION": provider_cookie}


async def test_a_sealed_session_opens_with_its_own_token_only(store: SessionStore) -> None:
    first = await store.create(PortalSession(user_id="u1", provider_cookies={}))
    second = await store.create(PortalSession(user_id="u2", provider_cookies={}))
    backend = store._backend
    # A row moved under another token's key (a store writer's mistake or an attack) opens nothing.
    await backend.put(
        f"session:{_digest(second)}", str(await backend.get(f"session:{_digest(first)}")), 60
    )
    assert await store.load(second) is None
    assert await store.redeem_claim_ticket("forged") is None


async def test_the_sqlite_store_is_readable_by_its_user_only(tmp_path: Path) -> None:
    """Issue 18, item 8: sessions.db and its -wal/-shm files were 0644."""
    old = os.umask(0o022)
    try:
        settings = _settings(tmp_path)
        store = SessionStore(settings, SqliteBackend(settings.portal_session_db))
        await store.create(PortalSession(user_id="u1", provider_cookies={}))
    finally:
        os.umask(old)
    modes = _modes(tmp_path)
    assert "sessions.db" in modes
    assert set(modes.values()) == {0o600}, modes


async def test_a_remembered_device_keeps_the_provider_cookie_sealed(store: SessionStore) -> None:
    """Issue 18, item 10: the browser's device cookie is a token of ours; the provider's device
    cookie is found with it only, and a claim ticket hands the device token over once."""
    device = await store.remember_device({"PATCHBAY_PROVIDER_DEVICE": "provider-secret"})
    assert await store.remembered_device(device) == {"PATCHBAY_PROVIDER_DEVICE": "provider-secret"}
    assert await store.remembered_device("forged") == {}
    assert await store.remembered_device("") == {}
    ticket = await store.issue_claim_ticket("session-token", device)
    assert await store.redeem_claim_ticket(ticket) == Claim("session-token", device)
