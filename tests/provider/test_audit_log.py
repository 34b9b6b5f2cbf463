"""The audit log collection (issue 17): administrators only, newest first, filtered by action,
by any e-mail an entry names and by day, paged."""

from collections import Counter
from datetime import timedelta

import httpx
import pytest
from sqlmodel import Session, select

from portal.provider.platform.audit import ITEMISED_REFUSALS
from portal.provider.platform.models import AuditLog, utcnow
from portal.settings import get_settings
from tests.provider.conftest import PASSWORD, SignIn, World


@pytest.fixture(scope="module")
def entries(world: World) -> World:
    now = utcnow()
    with Session(world.engine) as db:
        db.add(
            AuditLog(
                action="impersonation_started",
                at=now - timedelta(days=3),
                detail={"actor_email": "admin@patchbay.test", "subject_email": "bob@example.test"},
                client_address="198.51.100.4",
            )
        )
        db.add(
            AuditLog(
                action="user_updated",
                at=now - timedelta(days=1),
                detail={
                    "actor_email": "alice@acme-networks.test",
                    "subject_email": "bob@example.test",
                    "fields": ["lastname", "roles"],
                },
            )
        )
        db.commit()
    return world


async def test_only_administrators_read_it(
    client: httpx.AsyncClient, sign_in: SignIn, entries: World
) -> None:
    assert (await client.get("/api/audit_log")).status_code == 401
    await sign_in("alice")
    assert (await client.get("/api/audit_log")).status_code == 403
    await sign_in("support")
    assert (await client.get("/api/audit_log")).status_code == 403


async def test_newest_first_with_who_did_what(
    client: httpx.AsyncClient, sign_in: SignIn, entries: World
) -> None:
    await client.post("/login", json={"username": entries.email("bob"), "password": "wrong"})
    await sign_in("admin")
    body = (await client.get("/api/audit_log", params={"itemsPerPage": 2})).json()
    assert body["hydra:totalItems"] >= 4  # the two above, logins of the tests, bob's failure
    first, second = body["hydra:member"]
    assert first["action"] == "login"
    assert first["actorEmail"] == "admin@patchbay.test"
    assert second["action"] == "login_failed"
    assert second["subjectEmail"] == entries.email("bob")
    assert body["hydra:view"]["hydra:next"].endswith("page=2")
    updated = (await client.get("/api/audit_log", params={"action": "user_updated"})).json()
    [entry] = updated["hydra:member"]
    assert entry["detail"] == {"fields": "lastname, roles"}
    assert entry["actorEmail"] == "alice@acme-networks.test"


async def test_filters_by_email_and_day(
    client: httpx.AsyncClient, sign_in: SignIn, entries: World
) -> None:
    await sign_in("admin")
    bob = (await client.get("/api/audit_log", params={"email": "BOB@"})).json()
    assert {e["action"] for e in bob["hydra:member"]} >= {"impersonation_started", "user_updated"}
    day = (utcnow() - timedelta(days=3)).date().isoformat()
    that_day = (
        await client.get("/api/audit_log", params={"at[after]": day, "at[before]": day})
    ).json()
    assert [e["action"] for e in that_day["hydra:member"]] == ["impersonation_started"]
    assert that_day["hydra:member"][0]["clientAddress"] == "198.51.100.4"
    bad = await client.get("/api/audit_log", params={"at[after]": "yesterday"})
    assert bad.status_code == 400
    assert PASSWORD not in bad.text
    # Issue 18, item 9: "0" was 1970-01-01 (seconds since 1970), and every entry came back.
    assert (await client.get("/api/audit_log", params={"at[before]": "0"})).status_code == 400


async def test_a_flood_of_refused_logins_writes_a_bounded_number_of_rows(
    client: httpx.AsyncClient, sign_in: SignIn, entries: World
) -> None:
    """Issue 47, item 17: every refused login wrote a row. From one address, the first refusals
    of each action in a window are itemised and the rest counted on one entry: the rows below
    are as many for a thousand refusals as for a million."""
    address, flood = "198.51.100.66", 1_000
    body = {"username": "flooded@example.test", "password": "wrong"}
    for _ in range(flood):
        response = await client.post("/login", json=body, headers={"X-Forwarded-For": address})
        assert response.status_code in (401, 429)
    with Session(entries.engine) as db:
        rows = db.exec(select(AuditLog).where(AuditLog.client_address == address)).all()
    by_action = Counter(row.action for row in rows)
    limit = get_settings().login_limit_per_account
    assert by_action == {"login_failed": limit, "login_throttled": ITEMISED_REFUSALS + 1}
    assert sum(row.count for row in rows) == flood
    await sign_in("admin")
    newest = await client.get("/api/audit_log", params={"action": "login_throttled"})
    summary = newest.json()["hydra:member"][0]
    assert summary["clientAddress"] == address
    assert summary["count"] == flood - limit - ITEMISED_REFUSALS
    assert summary["actorEmail"] is None
