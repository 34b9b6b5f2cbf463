"""The private calendar feed (issue 14, item 4): a token made, replaced and revoked by its own
user; an iCalendar (RFC 5545) body that parses back, with one event per maintenance the user
sees, a stable UID, the reference and classification in the summary, the user's own impacted
services only, STATUS:CANCELLED and a higher SEQUENCE after a change; 404 for any token that no
longer reads. Issue 47, item 15: a link ends with a new password, roles or companies, is made and
ended on the audit log's record, and staff get none."""

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import vobject
from icalendar import Calendar
from sqlmodel import Session, col, select

from portal.provider.platform import one_time_tokens
from portal.provider.platform.feed_links import feed_path, issue_feed
from portal.provider.platform.models import AuditLog, Maintenance, TokenPurpose, User
from tests.provider.accounts import MERGE_PATCH
from tests.provider.conftest import PASSWORD, SignIn, World
from tests.provider.integration_helpers import add_service_type, counts, token_headers

FEED = "/api/calendar_feed"
NOW = datetime.now(UTC).replace(microsecond=0)


def _maintenance(reference: str, days: int, services: list[str], **fields: Any) -> dict[str, Any]:
    start = NOW + timedelta(days=days)
    return {
        "reference": reference,
        "name": f"Works {reference}",
        "type": "preventive",
        "classification": "outage",
        "status": "scheduled",
        "dateStart": start.isoformat(),
        "dateEnd": (start + timedelta(hours=4)).isoformat(),
        "services": services,
        "contacts": ["noc@patchbay.test", {"email": "ops@globex.test", "company": "C-GLOBEX"}],
        **fields,
    }


MAINTENANCES = [
    _maintenance("MNT-SHARED", 3, ["PB-A", "PB-G"]),
    _maintenance("MNT-ACME", 10, ["PB-A"], classification="noImpact"),
    _maintenance("MNT-GLOBEX", 5, ["PB-G"]),
    # Long over: outside the feed's three months.
    _maintenance("MNT-OLD", -200, ["PB-A"]),
]


@pytest.fixture
async def estate(client: httpx.AsyncClient, world: World) -> dict[str, str]:
    headers = token_headers(world)
    with Session(world.engine) as session:
        if session.exec(select(Maintenance).where(Maintenance.reference == "MNT-OLD")).first():
            return headers
    add_service_type(world.engine)
    companies = [
        {"reference": "C-ACME", "name": "Acme Networks"},
        {"reference": "C-GLOBEX", "name": "Globex"},
    ]
    await counts(client, "companies", companies, headers)
    services = [
        {"reference": ref, "company": company, "type": "ip_transit", "status": "active"}
        for ref, company in (("PB-A", "C-ACME"), ("PB-G", "C-GLOBEX"))
    ]
    await counts(client, "services", services, headers)
    await counts(client, "maintenances", MAINTENANCES, headers)
    return headers


async def _new_feed(client: httpx.AsyncClient, language: str = "en") -> str:
    response = await client.post(FEED, headers={"Accept-Language": language})
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["path"] == f"/feeds/maintenances/{body['token']}.ics"
    assert body["token"].startswith("pbc_")
    assert len(body["token"]) >= 40
    return str(body["path"])


async def _read(app_client: httpx.AsyncClient, path: str) -> Calendar:
    """The feed as a calendar program reads it: no cookie, only the URL."""
    async with httpx.AsyncClient(
        transport=app_client._transport, base_url=app_client.base_url
    ) as bare:
        response = await bare.get(path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def _events(calendar: Calendar) -> dict[str, Any]:
    return {str(event["summary"]).split(" · ")[0]: event for event in calendar.walk("VEVENT")}


async def _status(app_client: httpx.AsyncClient, path: str) -> int:
    async with httpx.AsyncClient(
        transport=app_client._transport, base_url=app_client.base_url
    ) as bare:
        return (await bare.get(path)).status_code


async def test_the_feed_routes_need_a_session(client: httpx.AsyncClient) -> None:
    assert (await client.get(FEED)).status_code == 401
    assert (await client.post(FEED)).status_code == 401
    assert (await client.delete(FEED)).status_code == 401
    assert (await client.get("/feeds/maintenances/pbc_nothing.ics")).status_code == 404


async def test_a_feed_holds_the_users_maintenances_and_only_their_services(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("alice")
    assert (await client.get(FEED)).json() == {
        "@type": "CalendarFeed",
        "active": False,
        "createdAt": None,
        "lastUsedAt": None,
    }
    path = await _new_feed(client)
    assert (await client.get(FEED)).json()["active"] is True
    calendar = await _read(client, path)
    assert calendar["version"] == "2.0"
    assert calendar["prodid"]
    # Both refresh hints are RFC 5545 durations (Outlook reads X-PUBLISHED-TTL).
    assert calendar.to_ical().decode().count("PT1H\r\n") == 2
    events = _events(calendar)
    assert sorted(events) == ["MNT-ACME", "MNT-SHARED"]
    shared = events["MNT-SHARED"]
    assert str(shared["summary"]) == "MNT-SHARED · Outage · Works MNT-SHARED"
    assert str(events["MNT-ACME"]["summary"]).startswith("MNT-ACME · No impact")
    assert shared.decoded("dtstart") == NOW + timedelta(days=3)
    assert shared.decoded("dtend") == NOW + timedelta(days=3, hours=4)
    assert str(shared["status"]) == "CONFIRMED"
    description = str(shared["description"])
    # Alice's service, the provider's contact; never Globex's service or contact.
    assert "PB-A" in description
    assert "noc@patchbay.test" in description
    assert "PB-G" not in description
    assert "globex" not in description.lower()
    assert "PB-G" not in calendar.to_ical().decode()
    assert (await client.get(FEED)).json()["lastUsedAt"] is not None


async def test_a_feed_carries_the_maintnote_properties_of_the_notices(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    # Issue 50: what a notice's maintnote part says, read back by a second parser (vobject).
    service = {"reference": "PB-A", "company": "C-ACME", "type": "ip_transit", "status": "active"}
    service["clientReferences"] = ["ACME-CORE-1", "Paris, PA2"]
    await counts(client, "services", [service], estate)
    await sign_in("alice")
    path = await _new_feed(client)
    async with httpx.AsyncClient(transport=client._transport, base_url=client.base_url) as bare:
        text = (await bare.get(path)).text
    events = {
        event.contents["x-maintnote-maintenance-id"][0].value: event
        for event in vobject.readOne(text).vevent_list
    }
    assert sorted(events) == ["MNT-ACME", "MNT-SHARED"]
    shared = events["MNT-SHARED"]
    values = {name: [item.value for item in items] for name, items in shared.contents.items()}
    assert values["x-maintnote-provider"] == ["patchbay.test"]
    assert values["x-maintnote-account"] == ["C-ACME"]
    assert values["x-maintnote-impact"] == ["OUTAGE"]
    assert values["x-maintnote-status"] == ["CONFIRMED"]
    # Alice's service only, with her company's own references of it.
    [impacted] = shared.contents["x-maintnote-object-id"]
    assert impacted.value == "PB-A"
    assert impacted.params["X-CLIENT-REFERENCE"] == ["ACME-CORE-1", "Paris, PA2"]
    assert events["MNT-ACME"].contents["x-maintnote-impact"][0].value == "NO-IMPACT"


async def test_uids_stay_and_a_change_raises_the_sequence(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("claire")
    path = await _new_feed(client, "fr")
    before = _events(await _read(client, path))
    assert sorted(before) == ["MNT-GLOBEX", "MNT-SHARED"]
    assert str(before["MNT-GLOBEX"]["summary"]) == "MNT-GLOBEX · Coupure · Works MNT-GLOBEX"
    assert "ops@globex.test" in str(before["MNT-SHARED"]["description"])
    assert "\nServices impactés:\n- PB-G" in str(before["MNT-SHARED"]["description"])
    cancelled = _maintenance("MNT-GLOBEX", 5, ["PB-G"], status="cancelled")
    assert await counts(client, "maintenances", [cancelled], estate) == (0, 1, 0)
    after = _events(await _read(client, path))
    assert after["MNT-GLOBEX"]["uid"] == before["MNT-GLOBEX"]["uid"]
    assert after["MNT-SHARED"]["uid"] == before["MNT-SHARED"]["uid"]
    assert str(after["MNT-GLOBEX"]["status"]) == "CANCELLED"
    assert str(after["MNT-GLOBEX"]["x-maintnote-status"]) == "CANCELLED"
    assert int(after["MNT-GLOBEX"]["sequence"]) == int(before["MNT-GLOBEX"]["sequence"]) + 1
    assert after["MNT-SHARED"]["sequence"] == before["MNT-SHARED"]["sequence"]
    # The same data sent again changes nothing, so calendar programs see no new version.
    assert await counts(client, "maintenances", [cancelled], estate) == (0, 0, 1)
    assert (
        _events(await _read(client, path))["MNT-GLOBEX"]["sequence"]
        == after["MNT-GLOBEX"]["sequence"]
    )


async def test_a_regenerated_or_revoked_token_no_longer_reads(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("bob")
    first = await _new_feed(client)
    second = await _new_feed(client)
    assert await _status(client, first) == 404
    assert await _status(client, second) == 200
    assert (await client.delete(FEED)).status_code == 204
    assert await _status(client, second) == 404
    assert (await client.get(FEED)).json()["active"] is False
    assert (await client.delete(FEED)).status_code == 204


async def test_a_feed_stops_when_its_user_loses_access_or_is_deleted(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    await sign_in("helene")
    path = await _new_feed(client)
    assert await _status(client, path) == 200
    with Session(world.engine) as session:
        user = session.get_one(User, world.users["helene"])
        user.roles = []
        session.add(user)
        session.commit()
    assert await _status(client, path) == 404
    with Session(world.engine) as session:
        user = session.get_one(User, world.users["helene"])
        user.roles = ["ROLE_ACCESS_MONITORING"]
        user.is_active = False
        session.add(user)
        session.commit()
    assert await _status(client, path) == 404
    with Session(world.engine) as session:
        session.delete(session.get_one(User, world.users["helene"]))
        session.commit()
        assert session.exec(select(User).where(User.id == world.users["helene"])).first() is None
    assert await _status(client, path) == 404


async def test_nobody_makes_a_feed_in_another_users_name(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("admin")
    answer = await client.post("/api/impersonation", json={"email": "alice@acme-networks.test"})
    assert answer.status_code in (200, 204), answer.text
    assert (await client.post(FEED)).status_code == 403
    assert (await client.delete(FEED)).status_code == 403
    assert (await client.post(FEED, headers=estate)).status_code == 403


def _feed_events(world: World, key: str) -> list[AuditLog]:
    """The audit entries about the feed link of the world's user ``key``, oldest first."""
    with Session(world.engine) as session:
        statement = (
            select(AuditLog)
            .where(col(AuditLog.action).startswith("calendar_feed."))
            .where(AuditLog.subject_id == world.users[key])
            .order_by(col(AuditLog.at))
        )
        return list(session.exec(statement).all())


async def test_making_and_stopping_a_link_is_audited(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    await sign_in("bram")
    await _new_feed(client)
    await _new_feed(client)
    assert (await client.delete(FEED)).status_code == 204
    assert (await client.delete(FEED)).status_code == 204  # nothing left to stop
    events = _feed_events(world, "bram")
    assert [(e.action, e.detail.get("replaced"), e.detail.get("reason")) for e in events] == [
        ("calendar_feed.create", False, None),
        ("calendar_feed.create", True, None),
        ("calendar_feed.revoke", None, "user"),
    ]
    assert {e.actor_id for e in events} == {world.users["bram"]}
    assert all(e.client_address for e in events)
    assert not any("pbc_" in str(e.detail) for e in events)


async def test_a_password_reset_ends_the_link(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    """Issue 47, item 15: the link outlived a password reset."""
    await sign_in("bob")
    path = await _new_feed(client)
    with Session(world.engine) as session:
        user = session.get_one(User, world.users["bob"])
        token = one_time_tokens.issue(session, user, TokenPurpose.RESET)
        session.commit()
    response = await client.post(f"/reset/{token}", json={"password": PASSWORD})
    assert response.status_code == 204, response.text
    assert await _status(client, path) == 404
    ended = _feed_events(world, "bob")[-1]
    assert (ended.action, ended.detail["reason"]) == ("calendar_feed.revoke", "password")
    assert ended.actor_id == world.users["bob"]


async def test_a_password_change_ends_the_link(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    await sign_in("alice")
    path = await _new_feed(client)
    response = await client.patch(
        f"/api/users/{world.users['alice']}",
        json={"password": "Alice-New-Pass-2027"},
        headers=MERGE_PATCH,
    )
    assert response.status_code == 200, response.text
    assert await _status(client, path) == 404
    ended = _feed_events(world, "alice")[-1]
    assert (ended.action, ended.detail["reason"]) == ("calendar_feed.revoke", "password")


async def test_new_roles_or_companies_end_the_link(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    claire = world.users["claire"]
    await sign_in("claire")
    path = await _new_feed(client)
    await sign_in("admin")
    kept = await client.patch(
        f"/api/users/{claire}", json={"phoneNumber": "+33 1 99 00 00 01"}, headers=MERGE_PATCH
    )
    assert kept.status_code == 200, kept.text
    assert await _status(client, path) == 200
    roles = {"roles": ["ROLE_MANAGE_USERS", "ROLE_ACCESS_INVOICES"]}
    response = await client.patch(f"/api/users/{claire}", json=roles, headers=MERGE_PATCH)
    assert response.status_code == 200, response.text
    assert await _status(client, path) == 404

    await sign_in("claire")
    path = await _new_feed(client)
    base = {"reference": "U-CLAIRE", "email": world.email("claire"), "firstname": "Claire"}
    same = [{**base, "lastname": "Test", "company": "C-GLOBEX"}]
    assert await counts(client, "users", same, estate) == (0, 1, 0)  # adopted: a reference
    assert await _status(client, path) == 200
    moved = [{**same[0], "auxiliaryCompanies": ["C-ACME"]}]
    assert await counts(client, "users", moved, estate) == (0, 1, 0)
    assert await _status(client, path) == 404
    ended = [e for e in _feed_events(world, "claire") if e.action == "calendar_feed.revoke"]
    assert [(e.detail["reason"], e.actor_id) for e in ended] == [
        ("access", world.users["admin"]),
        ("access", None),  # by a batch
    ]


async def test_staff_have_no_link(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    """Issue 47, item 15: a staff member's feed held every customer's maintenances."""
    for key in ("admin", "support"):
        await sign_in(key)
        response = await client.post(FEED)
        assert response.status_code == 403, key
        assert response.json()["detail"] == (
            "Staff have no calendar link: it would hold every customer's maintenances. The "
            "maintenances page shows them."
        )
    # A link a staff member made before reads nothing.
    with Session(world.engine) as session:
        _, token = issue_feed(session, session.get_one(User, world.users["support"]), "en")
        session.commit()
    assert await _status(client, feed_path(token)) == 404
