"""Tickets both ways, the helpdesk's side (issue 49): the ordered, resumable feed of what
customers did, the files it names, the idempotent batch of replies and changes of status, and
the e-mail each one sends the requester (at a real SMTP server), threaded under the ticket."""

import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.housekeeping import purge
from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.models import (
    OutboxMail,
    Ticket,
    TicketEvent,
    TicketPriority,
    TicketStatus,
    User,
    utcnow,
)
from portal.settings import get_settings
from tests.ports import free_port
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import counts, put, token_headers, violations
from tests.provider.mailbox import Sink, body, smtp_server
from tests.provider.settings_override import overridden

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")

EVENTS = "/api/integration/events"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("data")
    with overridden(data_dir=directory):
        yield directory


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch, engine: sa.Engine) -> Iterator[Sink]:
    port = free_port()
    with smtp_server(port=port) as (sink, _):
        monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{port}")
        get_settings.cache_clear()
        yield sink
        wait_for_deliveries()
    monkeypatch.undo()
    get_settings.cache_clear()
    with engine.begin() as connection:
        connection.execute(sa.delete(OutboxMail))


@pytest.fixture(scope="module")
def helpdesk(world: World, data_dir: Path) -> dict[str, str]:
    with Session(world.engine) as session:
        french = session.get_one(User, world.users["helene"])
        french.language = "fr"
        session.add(french)
        session.commit()
    return token_headers(world, scopes=("ticket_replies",), name="helpdesk")


async def _open(client: httpx.AsyncClient, subject: str) -> dict[str, Any]:
    body = {"subject": subject, "description": "It *fails*.", "type": "incident",
            "priority": "high"}  # fmt: skip
    response = await client.post("/api/tickets", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def _reference(ticket: dict[str, Any]) -> str:
    """The reference of a ticket opened in the portal, by which the helpdesk answers it."""
    return f"P-{ticket['number']}"


async def _events(
    client: httpx.AsyncClient, headers: dict[str, str], after: int | str = 0, limit: int = 100
) -> dict[str, Any]:
    response = await client.get(EVENTS, params={"after": after, "limit": limit}, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _outbox(world: World) -> list[OutboxMail]:
    with Session(world.engine) as session:
        return list(session.exec(select(OutboxMail)).all())


# --- the feed ----------------------------------------------------------------------------------


async def test_the_feed_is_ordered_and_resumable_from_any_cursor(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str]
) -> None:
    start = (await _events(client, helpdesk, limit=500))["cursor"]
    await sign_in("bob")
    ticket = await _open(client, "Feed 1")
    url = f"/api/tickets/{ticket['id']}"
    message = (await client.post(f"{url}/messages", json={"body": "See **this**"})).json()
    files = {"file": ("trace.pdf", PDF)}
    added = await client.post(f"{url}/attachments", files=files, data={"message": message["id"]})
    assert added.status_code == 201, added.text
    assert (await client.patch(url, json={"status": "closed"})).status_code == 200
    assert (await client.patch(url, json={"status": "open"})).status_code == 200

    everything = await _events(client, helpdesk, after=start)
    events = everything["events"]
    assert [e["type"] for e in events] == [
        "ticketOpened", "messagePosted", "attachmentAdded", "ticketClosed", "ticketReopened",
    ]  # fmt: skip
    assert everything["cursor"] == events[-1]["cursor"]
    assert everything["hasMore"] is False
    cursors = [int(e["cursor"]) for e in events]
    assert cursors == sorted(set(cursors))
    assert {e["ticket"]["reference"] for e in events} == {_reference(ticket)}
    assert events[0]["ticket"]["requesterEmail"] == world.email("bob")
    assert events[0]["ticket"]["status"] == "open"  # as it is now
    assert events[1]["message"]["body"] == "See **this**"
    assert events[1]["message"]["bodyHtml"] == "<p>See <strong>this</strong></p>\n"
    assert events[1]["message"]["authorEmail"] == world.email("bob")
    assert events[2]["messageId"] == message["id"]
    assert events[2]["attachment"]["contentType"] == "application/pdf"

    # From every cursor, what follows it, and nothing else; page by page, the same.
    for index, cursor in enumerate([int(start), *cursors]):
        assert (await _events(client, helpdesk, after=cursor))["events"] == events[index:]
    paged: list[dict[str, Any]] = []
    cursor = start
    while True:
        page = await _events(client, helpdesk, after=cursor, limit=2)
        paged += page["events"]
        cursor = page["cursor"]
        if not page["hasMore"]:
            break
    assert paged == events
    assert (await _events(client, helpdesk, after=cursor))["events"] == []
    # Past the ids' INTEGER column: a parameter out of bounds (400), never a 500 (PostgreSQL).
    beyond = await client.get(EVENTS, params={"after": 2**31}, headers=helpdesk)
    assert beyond.status_code == 400, beyond.text

    # The file, downloaded with the helpdesk's token.
    download = await client.get(events[2]["attachment"]["url"], headers=helpdesk)
    assert download.status_code == 200
    assert download.content == PDF
    assert download.headers["content-disposition"].startswith("attachment")


async def test_every_file_of_the_feed_downloads_with_the_helpdesk_token(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str]
) -> None:
    start = (await _events(client, helpdesk, limit=500))["cursor"]
    with Session(world.engine) as session:
        # A ticket loaded without the helpdesk's reference (the demo's, an older load).
        unreferenced = Ticket(number=7101, company_id=world.companies["acme"], name="7101",
                              subject="No reference", status=TicketStatus.OPEN,
                              priority=TicketPriority.LOW)  # fmt: skip
        session.add(unreferenced)
        session.commit()
        unreferenced_id = unreferenced.id
    await sign_in("bob")
    opened = await _open(client, "With a reference")
    sent: dict[str, bytes] = {}
    for ticket_id, name in [(unreferenced_id, "a.pdf"), (opened["id"], "b.txt")]:
        content = PDF if name.endswith(".pdf") else b"traceroute\n"
        files = {"file": (name, content)}
        added = await client.post(f"/api/tickets/{ticket_id}/attachments", files=files)
        assert added.status_code == 201, added.text
        sent[name] = content

    events = (await _events(client, helpdesk, after=start))["events"]
    feed_files = [e["attachment"] for e in events if e["attachment"] is not None]
    assert sorted(file["name"] for file in feed_files) == sorted(sent)
    other = token_headers(world, scopes=("tickets",), name="files, tickets only")
    for file in feed_files:
        assert "None" not in file["url"]
        download = await client.get(file["url"], headers=helpdesk)
        assert download.status_code == 200, file["url"]
        assert download.content == sent[file["name"]]
        assert download.headers["content-disposition"].startswith("attachment")
        assert download.headers["x-content-type-options"] == "nosniff"
        assert (await client.get(file["url"], headers=other)).status_code == 403
    missing = feed_files[0]["url"].rsplit("/", 1)[0] + f"/{uuid.uuid4()}"
    assert (await client.get(missing, headers=helpdesk)).status_code == 404


def _age_events(world: World, through: int | None = None) -> None:
    """Make the events up to ``through`` (every one without it) older than their retention."""
    old = utcnow() - timedelta(days=get_settings().ticket_event_retention_days + 1)
    statement = sa.update(TicketEvent).values(created=old)
    if through is not None:
        statement = statement.where(col(TicketEvent.id) <= through)
    with Session(world.engine) as session:
        session.exec(statement)
        session.commit()


async def test_old_events_are_purged_and_a_cursor_before_them_is_gone(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str]
) -> None:
    await sign_in("bob")
    ticket = await _open(client, "Long ago")
    url = f"/api/tickets/{ticket['id']}"
    for text in ("One", "Two", "Three"):
        assert (await client.post(f"{url}/messages", json={"body": text})).status_code == 201
    events = (await _events(client, helpdesk, limit=500))["events"]
    mine = [int(e["cursor"]) for e in events if e["ticket"]["id"] == ticket["id"]]
    assert len(mine) == 4  # opened, One, Two, Three

    # Opened and "One" are past the retention; the rest, within it.
    _age_events(world, through=mine[1])
    assert purge(world.engine)["ticket_events"] == len(
        [e for e in events if int(e["cursor"]) <= mine[1]]
    )
    # A helpdesk that read the opening but not "One" has missed it: told so, in its language.
    gone = await client.get(
        EVENTS, params={"after": mine[0]}, headers={**helpdesk, "Accept-Language": "fr"}
    )
    assert gone.status_code == 410
    assert gone.json()["detail"] == (
        f"Les événements qui suivent ce curseur, jusqu'à {mine[1]}, ne sont plus conservés (le "
        f"flux les garde 30 jours) : redemandez à partir du curseur {mine[1]}, et retrouvez ce "
        "qui a été manqué dans les tickets du portail."
    )
    # One that read both resumes; from 0, the feed starts at the oldest event kept.
    after_both = await _events(client, helpdesk, after=mine[1])
    assert [int(e["cursor"]) for e in after_both["events"]] == mine[2:]
    assert [int(e["cursor"]) for e in (await _events(client, helpdesk))["events"]] == mine[2:]

    # Emptied by a purge, the feed still numbers its next event after every cursor given.
    _age_events(world)
    assert purge(world.engine)["ticket_events"] == 2
    assert (await _events(client, helpdesk, after=mine[-1]))["events"] == []
    assert (await client.post(f"{url}/messages", json={"body": "Four"})).status_code == 201
    [four] = (await _events(client, helpdesk, after=mine[-1]))["events"]
    assert int(four["cursor"]) > mine[-1]
    assert four["message"]["body"] == "Four"
    assert (await _events(client, helpdesk))["events"] == [four]


async def test_the_feed_needs_the_helpdesk_scope(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str]
) -> None:
    assert (await client.get(EVENTS)).status_code == 401
    other = token_headers(world, scopes=("tickets",), name="tickets only")
    assert (await client.get(EVENTS, headers=other)).status_code == 403
    assert (await put(client, "ticket_replies", [], other)).status_code == 403
    await sign_in("bob")
    assert (await client.get(EVENTS)).status_code == 403
    await sign_in("admin")
    assert (await client.get(EVENTS)).status_code == 200
    wrong = await client.get(EVENTS, params={"after": -1}, headers=helpdesk)
    assert wrong.status_code == 400


# --- replies and statuses, by e-mail -------------------------------------------------------------


async def test_a_reply_reaches_the_conversation_and_the_requester_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str], smtp: Sink
) -> None:
    await sign_in("helene")
    ticket = await _open(client, "Perte de lien à Écully")
    reply = {
        "reference": "HD-R-1",
        "ticket": _reference(ticket),
        "author": "Ana Silva",
        "body": "We replaced the optic.\n\n<script>alert(1)</script>",
    }
    assert await counts(client, "ticket_replies", [reply], helpdesk) == (1, 0, 0)
    assert await counts(client, "ticket_replies", [reply], helpdesk) == (0, 0, 1)
    wait_for_deliveries()
    [(recipients, mail)] = smtp.messages
    assert recipients == [world.email("helene")]
    assert mail["Subject"] == f"[Ticket n°{ticket['number']}] Perte de lien à Écully"
    root = f"<ticket-{ticket['id']}@{get_settings().staff_mail_domain}>"
    assert (mail["In-Reply-To"], mail["References"]) == (root, root)
    assert mail["Message-ID"] != root
    text = body(mail, "plain")
    assert "Ana Silva a répondu à votre ticket" in text
    assert "> We replaced the optic." in text
    assert f"http://localhost:3000/tickets/{ticket['id']}" in text
    assert "<script" not in body(mail, "html")

    messages = (await client.get(f"/api/tickets/{ticket['id']}/messages")).json()["hydra:member"]
    assert [(m["author"], m["authorType"]) for m in messages] == [("Ana Silva", "provider")]
    assert "<script" not in messages[0]["body"]
    assert (await client.get(f"/api/tickets/{ticket['id']}")).json()["hasUnreadReply"] is True

    # A second reply and a change of status: one e-mail each, threaded under the same root.
    status = {"reference": "HD-R-2", "ticket": _reference(ticket), "author": "NOC",
              "status": "restoredService"}  # fmt: skip
    assert await counts(client, "ticket_replies", [status], helpdesk) == (0, 1, 0)
    assert await counts(client, "ticket_replies", [status], helpdesk) == (0, 0, 1)
    wait_for_deliveries()
    assert len(smtp.messages) == 2
    second = smtp.messages[1][1]
    assert second["References"] == root
    assert second["Message-ID"] != mail["Message-ID"]
    assert "Service rétabli" in body(second, "plain")


async def test_a_closing_reply_lets_the_customer_reopen_and_nothing_is_mailed_for_customers(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str], smtp: Sink
) -> None:
    await sign_in("bob")
    ticket = await _open(client, "Closing")
    url = f"/api/tickets/{ticket['id']}"
    assert (await client.post(f"{url}/messages", json={"body": "Any news?"})).status_code == 201
    wait_for_deliveries()
    assert smtp.messages == []
    assert _outbox(world) == []
    closing = {"reference": "HD-C-1", "ticket": _reference(ticket), "author": "NOC",
               "body": "Solved.", "status": "closed"}  # fmt: skip
    assert await counts(client, "ticket_replies", [closing], helpdesk) == (1, 0, 0)
    after = (await client.get(url)).json()
    assert after["status"] == "closed"
    assert after["reopenableUntil"] is not None
    assert (await client.patch(url, json={"status": "open"})).status_code == 200
    wait_for_deliveries()
    assert len(smtp.messages) == 1
    assert "Closed" in body(smtp.messages[0][1], "plain")


async def test_no_mail_for_a_requester_who_is_not_a_user_of_the_company(
    client: httpx.AsyncClient, world: World, helpdesk: dict[str, str], smtp: Sink
) -> None:
    with Session(world.engine) as session:
        for number, email in [(7001, "noc@elsewhere.test"), (7002, world.email("claire")),
                              (7003, world.email("gone"))]:  # fmt: skip
            session.add(
                Ticket(number=number, reference=f"HD-{number}", company_id=world.companies["acme"],
                       name=str(number), subject="Helpdesk's own", status=TicketStatus.OPEN,
                       priority=TicketPriority.LOW, requester_email=email)
            )  # fmt: skip
        session.commit()
    replies = [
        {"reference": f"HD-N-{number}", "ticket": f"HD-{number}", "author": "NOC", "body": "Hi"}
        for number in (7001, 7002, 7003)
    ]
    assert await counts(client, "ticket_replies", replies, helpdesk) == (3, 0, 0)
    wait_for_deliveries()
    assert smtp.messages == []


async def test_replies_are_checked_before_anything_is_written(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, helpdesk: dict[str, str]
) -> None:
    await sign_in("bob")
    first, second = await _open(client, "One"), await _open(client, "Two")
    good = {"reference": "HD-X-1", "ticket": _reference(first), "author": "NOC", "body": "Hi"}
    assert await counts(client, "ticket_replies", [good], helpdesk) == (1, 0, 0)
    batch = [
        {"reference": "HD-X-2", "ticket": "P-404", "author": "NOC", "body": "Hi"},
        {"reference": "HD-X-3", "ticket": _reference(first), "author": "NOC"},
        {**good, "ticket": _reference(second)},
        {
            "reference": "HD-X-4",
            "ticket": _reference(first),
            "author": "NOC",
            "body": "x" * 20_001,
        },
        {"reference": "HD-X-5", "ticket": _reference(first), "author": "NOC", "status": "gone"},
        {"reference": "HD-X-6", "ticket": _reference(first), "author": "NOC", "body": " \n\t "},
    ]
    assert violations(await put(client, "ticket_replies", batch, helpdesk)) == [
        "[0].ticket", "[1]", "[2].reference", "[3].body", "[4].status", "[5].body",
    ]  # fmt: skip
    messages = (await client.get(f"/api/tickets/{first['id']}/messages")).json()
    assert messages["hydra:totalItems"] == 1
    assert uuid.UUID(first["id"])


async def test_the_helpdesk_scope_is_one_of_the_tokens_and_not_given_to_old_ones(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    world.add_user("admin2", "staff", roles=(Role.ADMIN,), email="admin2@patchbay.test")
    await sign_in("admin2")
    response = await client.post("/api/tokens", json={"name": "desk", "scopes": ["ticket_replies"]})
    assert response.status_code == 201, response.text
    assert response.json()["scopes"] == ["ticket_replies"]
