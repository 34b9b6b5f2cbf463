"""The portal session keeps the impersonator across reloads (spec 4, DESIGN 4), and sessions
saved before impersonation existed still load."""

import json
from pathlib import Path

from portal.session_store import PortalSession, SessionStore, SqliteBackend, seal
from portal.settings import Settings


def _store(tmp_path: Path) -> tuple[SessionStore, SqliteBackend]:
    settings = Settings(portal_session_db=tmp_path / "sessions.db", redis_url="")
    backend = SqliteBackend(settings.portal_session_db)
    return SessionStore(settings, backend), backend


async def test_the_impersonator_and_the_rotated_cookies_survive_a_reload(tmp_path: Path) -> None:
    store, _ = _store(tmp_path)
    token = await store.create(PortalSession(user_id="admin", provider_cookies={"s": "first"}))
    session = await store.load(token)
    assert session is not None
    session.user_id = "alice"
    session.provider_cookies = {"s": "rotated"}
    session.impersonator_id = "admin"
    session.impersonator_email = "admin@patchbay.test"
    session.impersonator_name = "Ada Admin"
    session.impersonator_roles = ["ROLE_ADMIN"]
    await store.save(token, session)

    reloaded = await store.load(token)
    assert reloaded is not None
    assert (reloaded.user_id, reloaded.provider_cookies) == ("alice", {"s": "rotated"})
    assert (reloaded.impersonator_id, reloaded.impersonator_email) == (
        "admin",
        "admin@patchbay.test",
    )
    assert reloaded.impersonator_name == "Ada Admin"
    assert reloaded.impersonator_roles == ["ROLE_ADMIN"]


async def test_a_session_saved_without_impersonator_fields_loads(tmp_path: Path) -> None:
    store, backend = _store(tmp_path)
    token = await store.create(PortalSession(user_id="u1", provider_cookies={}))
    key = next(iter(backend._run("SELECT key FROM portal_session")))[0]
    old = {"user_id": "u1", "provider_cookies": {}, "impersonator_id": ""}
    old |= {"created_at": 1e12, "last_seen_at": 1e12}
    await backend.put(key, seal(token, json.dumps(old)), 60)

    session = await store.load(token)
    assert session is not None
    assert (session.impersonator_email, session.impersonator_roles) == ("", [])
