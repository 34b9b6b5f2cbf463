"""The calendar feed's validators and cache (issue 55, item 5): ETag and Last-Modified, 304
without a body for the copy a calendar program holds, a new feed after a maintenance or a
service it describes changed, and never another user's or language's cached feed."""

from datetime import timedelta
from typing import Any

import httpx
from icalendar import Calendar
from sqlalchemy import update
from sqlmodel import Session, select

from portal.provider.platform.models import Service, User
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import counts
from tests.provider.test_maintenances_feed import (
    NOW,
    _events,
    _maintenance,
    _new_feed,
    estate,
)

__all__ = ["estate"]  # the fixture, shared with the feed's own tests


async def _get(
    app_client: httpx.AsyncClient, path: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    """A calendar program's read, conditional when given its copy's validators."""
    async with httpx.AsyncClient(
        transport=app_client._transport, base_url=app_client.base_url
    ) as bare:
        return await bare.get(path, headers=headers or {})


async def test_an_unchanged_feed_answers_304_without_a_body(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    # Issue 55, item 5: ETag and Last-Modified, and 304 for the copy a calendar program holds.
    await sign_in("alice")
    path = await _new_feed(client)
    first = await _get(client, path)
    assert first.status_code == 200
    etag, modified = first.headers["etag"], first.headers["last-modified"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert modified.endswith(" GMT")
    again = await _get(client, path, {"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert "content-length" not in again.headers or again.headers["content-length"] == "0"
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == "private, no-cache"
    assert (await _get(client, path, {"If-None-Match": f'"other", W/{etag}'})).status_code == 304
    assert (await _get(client, path, {"If-Modified-Since": modified})).status_code == 304
    # Another copy, or one older than the last change: the whole feed, the same bytes.
    for stale in (
        {"If-None-Match": '"other"'},
        {"If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"},
    ):
        answer = await _get(client, path, stale)
        assert answer.status_code == 200
        assert answer.content == first.content
        assert answer.headers["etag"] == etag
    # An unreadable date is no copy at all.
    assert (await _get(client, path, {"If-Modified-Since": "yesterday"})).status_code == 200


async def test_a_changed_maintenance_or_service_gives_a_new_feed(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("alice")
    path = await _new_feed(client)
    first = await _get(client, path)
    etag = first.headers["etag"]
    moved = _maintenance("MNT-ACME", 11, ["PB-A"], classification="noImpact")
    assert await counts(client, "maintenances", [moved], estate) == (0, 1, 0)
    changed = await _get(client, path, {"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    events = _events(Calendar.from_ical(changed.content))
    assert events["MNT-ACME"].decoded("dtstart") == NOW + timedelta(days=11)
    assert (await _get(client, path, {"If-None-Match": changed.headers["etag"]})).status_code == 304
    # What an event says of a service is no maintenance's column: its change ends the copy too.
    service = {"reference": "PB-A", "company": "C-ACME", "type": "ip_transit", "status": "active"}
    service["clientReferences"] = ["ACME-EDGE-9"]
    await counts(client, "services", [service], estate)
    renamed = await _get(client, path, {"If-None-Match": changed.headers["etag"]})
    assert renamed.status_code == 200
    assert "ACME-EDGE-9" in renamed.text


async def test_a_change_of_the_users_access_gives_a_new_feed(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    """Limited to some services (issue 53), a user's feed lists only those: a change of the
    limit ends the copy, though the maintenances it shows may be the same."""
    await sign_in("alice")
    path = await _new_feed(client)
    etag = (await _get(client, path)).headers["etag"]
    with Session(world.engine) as db:
        alice = db.get_one(User, world.users["alice"])
        service = db.exec(select(Service).where(Service.reference == "PB-A")).one()
        access = f"/api/users/{alice.id}/access/{alice.company_id}"
    await sign_in("admin")
    limited = {"limited": True, "services": [f"/api/services/{service.id}"]}
    answer = await client.put(access, json=limited)
    assert answer.status_code == 200, answer.text
    changed = await _get(client, path, {"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag


async def test_a_cached_feed_is_never_another_users(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn
) -> None:
    await sign_in("alice")
    alice_path = await _new_feed(client)
    alice = await _get(client, alice_path)
    assert alice.status_code == 200
    await sign_in("claire")
    claire_path = await _new_feed(client)
    # Claire's program sends Alice's validator: her own feed, never Alice's cached one.
    claire = await _get(client, claire_path, {"If-None-Match": alice.headers["etag"]})
    assert claire.status_code == 200
    assert claire.headers["etag"] != alice.headers["etag"]
    assert sorted(_events(Calendar.from_ical(claire.content))) == ["MNT-GLOBEX", "MNT-SHARED"]
    assert "PB-A" not in claire.text
    assert (await _get(client, alice_path)).content == alice.content
    # A language of its own: the same user's French link is another feed.
    await sign_in("alice")
    french_path = await _new_feed(client, "fr")
    french = await _get(client, french_path, {"If-None-Match": alice.headers["etag"]})
    assert french.status_code == 200
    assert "Coupure" in french.text
    # The replaced English link reads nothing, cached or not.
    assert (
        await _get(client, alice_path, {"If-None-Match": alice.headers["etag"]})
    ).status_code == 404


async def test_the_openapi_documents_the_validators_and_304(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    operation = document["paths"]["/feeds/maintenances/{token}.ics"]["get"]
    assert {"200", "304", "404"} <= set(operation["responses"])
    assert set(operation["responses"]["200"]["headers"]) == {"ETag", "Last-Modified"}
    names = {parameter["name"] for parameter in operation["parameters"]}
    assert {"if-none-match", "if-modified-since"} <= names


async def test_a_bulk_update_of_a_service_gives_a_new_feed(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, world: World
) -> None:
    """A bulk statement, as the client-reference import writes them, which no flush sees."""
    await sign_in("alice")
    path = await _new_feed(client)
    first = await _get(client, path)
    with Session(world.engine) as session:
        service = session.exec(select(Service).where(Service.reference == "PB-A")).one()
        rows = [{"id": service.id, "client_references": ["ACME-BULK-7"]}]
        session.exec(update(Service), params=rows)
        session.commit()
    changed = await _get(client, path, {"If-None-Match": first.headers["etag"]})
    assert changed.status_code == 200
    assert "ACME-BULK-7" in changed.text


async def test_without_redis_the_feed_is_built_as_before(
    client: httpx.AsyncClient, estate: dict[str, str], sign_in: SignIn, monkeypatch: Any
) -> None:
    await sign_in("alice")
    path = await _new_feed(client)
    expected = (await _get(client, path)).content
    # Nothing listens there: every Redis call fails at once.
    monkeypatch.setattr(get_settings(), "redis_url", "redis://127.0.0.1:1/0")
    answer = await _get(client, path, {"If-None-Match": '"anything"'})
    assert answer.status_code == 200
    assert answer.content == expected
    assert "etag" not in answer.headers
