"""Tickets both ways, the customer's side (issue 49): opening a ticket, its conversation, its
files, closing and reopening, read marks; who may do each (every role, another company: 404),
the limits (413, 429, the files' size, count and types) and the sanitising of Markdown."""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform.models import (
    AuditLog,
    AuthorType,
    Service,
    ServiceType,
    Ticket,
    TicketEvent,
    TicketMessage,
    TicketPriority,
    TicketStatus,
    utcnow,
)
from portal.settings import get_settings
from tests.provider.accounts import add_staff, impersonating, violations
from tests.provider.conftest import SignIn, World
from tests.provider.settings_override import overridden

pytestmark = pytest.mark.usefixtures("fresh_rate_limits")

TICKETS = "/api/tickets"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


@dataclass
class Desk:
    tickets: dict[str, uuid.UUID] = field(default_factory=dict)
    services: dict[str, uuid.UUID] = field(default_factory=dict)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("data")
    with overridden(data_dir=directory):
        yield directory


def _ticket(world: World, key: str, company: str, number: int, status: TicketStatus) -> Ticket:
    return Ticket(
        number=number,
        reference=f"HD-{number}",
        company_id=world.companies[company],
        name=f"INC{number}",
        subject=f"Ticket {key}",
        status=status,
        priority=TicketPriority.MEDIUM,
        requester_email=world.email("bob"),
    )


@pytest.fixture(scope="module")
def desk(world: World, data_dir: Path) -> Desk:
    add_staff(world)
    desk = Desk()
    with Session(world.engine) as session:
        kind = ServiceType(key="ip_transit", label_en="IP transit", label_fr="Transit IP")
        services = {
            "acme": Service(reference="PB-1", company_id=world.companies["acme"], status="active",
                            type=kind),
            "benelux": Service(reference="PB-2", company_id=world.companies["benelux"],
                               status="active", type=kind),
            "globex": Service(reference="PB-3", company_id=world.companies["globex"],
                              status="active", type=kind),
        }  # fmt: skip
        tickets = {
            "open": _ticket(world, "open", "acme", 501, TicketStatus.IN_PROGRESS),
            "closed": _ticket(world, "closed", "acme", 502, TicketStatus.CLOSED),
            "old": _ticket(world, "old", "acme", 503, TicketStatus.CLOSED),
            "globex": _ticket(world, "globex", "globex", 504, TicketStatus.OPEN),
            "solved": _ticket(world, "solved", "acme", 505, TicketStatus.SOLVED),
        }
        tickets["closed"].closed_at = utcnow() - timedelta(days=3)
        tickets["old"].closed_at = utcnow() - timedelta(days=15)
        session.add_all([kind, *services.values(), *tickets.values()])
        session.commit()
        desk.tickets = {key: ticket.id for key, ticket in tickets.items()}
        desk.services = {key: service.id for key, service in services.items()}
    return desk


def _url(desk: Desk, key: str, rest: str = "") -> str:
    return f"{TICKETS}/{desk.tickets[key]}{rest}"


def _new(**fields: Any) -> dict[str, Any]:
    return {
        "subject": "Loss of light on PB-1",
        "description": "Since **09:40**, no light.",
        "type": "incident",
        "priority": "high",
        **fields,
    }


async def _post_message(client: httpx.AsyncClient, url: str, body: str) -> httpx.Response:
    return await client.post(f"{url}/messages", json={"body": body})


# --- opening a ticket -------------------------------------------------------------------------


async def test_a_customer_opens_a_ticket_on_a_service(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("alice")
    service = f"/api/services/{desk.services['benelux']}"
    response = await client.post(TICKETS, json=_new(service=service))
    assert response.status_code == 201, response.text
    ticket = response.json()
    assert response.headers["location"] == ticket["@id"] == f"{TICKETS}/{ticket['id']}"
    assert ticket["status"] == "open"
    assert ticket["number"] >= get_settings().portal_ticket_number_start
    assert ticket["company"] == f"/api/companies/{world.companies['benelux']}"
    assert ticket["serviceReference"] == "PB-2"
    assert ticket["service"] == service
    with Session(world.engine) as session:
        stored = session.get_one(Ticket, uuid.UUID(ticket["id"]))
    assert stored.service_id == desk.services["benelux"]
    assert ticket["requesterEmail"] == "alice@acme-networks.test"
    assert ticket["type"] == "Incident"
    assert ticket["description"] == "<p>Since <strong>09:40</strong>, no light.</p>\n"
    assert (ticket["canWrite"], ticket["canClose"], ticket["hasUnreadReply"]) == (
        True,
        True,
        False,
    )
    assert ticket["reopenableUntil"] is None
    second = await client.post(TICKETS, json=_new(service=str(desk.services["acme"])))
    assert second.json()["number"] == ticket["number"] + 1
    with Session(world.engine) as session:
        events = session.exec(select(TicketEvent).order_by(col(TicketEvent.id))).all()
        opened = [event.ticket_id for event in events if event.type == "ticketOpened"]
    assert opened[-2:] == [uuid.UUID(ticket["id"]), uuid.UUID(second.json()["id"])]


async def test_the_company_is_required_of_a_user_of_several_and_must_be_theirs(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("alice")
    assert list(violations(await client.post(TICKETS, json=_new()))) == ["company"]
    foreign = _new(company=f"/api/companies/{world.companies['globex']}")
    assert list(violations(await client.post(TICKETS, json=foreign))) == ["company"]
    theirs = _new(service=f"/api/services/{desk.services['globex']}")
    assert list(violations(await client.post(TICKETS, json=theirs))) == ["service"]
    chosen = _new(company=f"/api/companies/{world.companies['benelux']}")
    response = await client.post(TICKETS, json=chosen)
    assert response.status_code == 201, response.text
    # One company: it is the ticket's.
    await sign_in("bob")
    response = await client.post(TICKETS, json=_new(type="question", priority="low"))
    assert response.status_code == 201, response.text
    assert response.json()["company"] == f"/api/companies/{world.companies['acme']}"


async def test_the_fields_of_a_new_ticket_are_checked(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    wrong = _new(subject="", description="x" * 20_001, type="complaint", priority="urgent")
    assert sorted(violations(await client.post(TICKETS, json=wrong))) == [
        "description",
        "priority",
        "subject",
        "type",
    ]
    assert list(violations(await client.post(TICKETS, json=_new(subject="s" * 201)))) == ["subject"]


async def test_a_subject_or_description_of_only_spaces_is_blank(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    blank = _new(subject="   ", description=" \n\t \n")
    response = await client.post(TICKETS, json=blank, headers={"Accept-Language": "fr"})
    assert violations(response) == {
        "subject": ["Cette valeur ne doit pas être vide."],
        "description": ["Cette valeur ne doit pas être vide."],
    }
    # Kept as written otherwise: the subject trimmed, the description's indent is Markdown.
    written = _new(subject="  Loss  ", description="    code\n")
    ticket = (await client.post(TICKETS, json=written)).json()
    assert ticket["subject"] == "Loss"
    assert ticket["description"] == "<pre><code>code\n</code></pre>\n"


@pytest.mark.parametrize("writer", ["admin", "support", "sales", "usermanager", "nobody"])
async def test_staff_and_users_without_roles_open_no_ticket(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn, writer: str
) -> None:
    if writer == "nobody" and "nobody" not in world.users:
        world.add_user("nobody", "acme", roles=())
    await sign_in(writer)
    response = await client.post(TICKETS, json=_new(company=str(world.companies["acme"])))
    assert response.status_code == 403, response.text


async def test_an_impersonating_admin_writes_as_the_customer_a_sales_user_may_not(
    client: httpx.AsyncClient, world: World, desk: Desk
) -> None:
    impersonating(client, world, "sales", "bob")
    assert (await client.post(TICKETS, json=_new())).status_code == 403
    assert (await _post_message(client, _url(desk, "open"), "Hi")).status_code == 403
    impersonating(client, world, "admin", "bob")
    assert (await client.post(TICKETS, json=_new())).status_code == 201


async def test_writes_while_impersonating_are_audited_with_the_impersonator(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    impersonating(client, world, "admin", "bob")
    ticket = (await client.post(TICKETS, json=_new(subject="Audited"))).json()
    url = f"{TICKETS}/{ticket['id']}"
    assert (await client.patch(url, json={"status": "closed"})).status_code == 200
    client.cookies.clear()
    await sign_in("bob")
    assert (await client.patch(url, json={"status": "open"})).status_code == 200
    with Session(world.engine) as session:
        entries = session.exec(
            select(AuditLog)
            .where(col(AuditLog.action).startswith("ticket."))
            .order_by(col(AuditLog.at))
        ).all()
    mine = [e for e in entries if e.detail.get("ticket") == f"P-{ticket['number']}"]
    assert [(e.action, e.actor_id, e.detail.get("impersonator_email")) for e in mine] == [
        ("ticket.open", world.users["bob"], world.email("admin")),
        ("ticket.close", world.users["bob"], world.email("admin")),
        ("ticket.reopen", world.users["bob"], None),
    ]


# --- every route, every reader -----------------------------------------------------------------


def _routes(desk: Desk, key: str) -> list[tuple[str, str, dict[str, Any]]]:
    url = _url(desk, key)
    return [
        ("GET", f"{url}/messages", {}),
        ("POST", f"{url}/messages", {"json": {"body": "Hello"}}),
        ("GET", f"{url}/messages/{uuid.uuid4()}", {}),
        ("POST", f"{url}/attachments", {"files": {"file": ("a.pdf", PDF, "application/pdf")}}),
        ("PATCH", url, {"json": {"status": "closed"}}),
        ("PUT", f"{url}/read", {}),
    ]


@pytest.mark.parametrize("reader", ["claire", "bram"])
async def test_another_companys_ticket_is_not_found_on_every_route(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, reader: str
) -> None:
    await sign_in(reader)
    for method, url, options in _routes(desk, "open"):
        response = await client.request(method, url, **options)
        assert response.status_code == 404, (method, url, response.text)


async def test_the_routes_need_a_session(client: httpx.AsyncClient, desk: Desk) -> None:
    for method, url, options in [*_routes(desk, "open"), ("POST", TICKETS, {"json": _new()})]:
        response = await client.request(method, url, **options)
        assert response.status_code == 401, (method, url)


@pytest.mark.parametrize("reader", ["admin", "support", "sales", "usermanager"])
async def test_staff_read_every_conversation_and_write_in_none(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, reader: str
) -> None:
    await sign_in(reader)
    for method, url, options in _routes(desk, "globex"):
        response = await client.request(method, url, **options)
        expected = {"GET": 200, "PUT": 204}.get(method, 403)
        if "/messages/" in url:
            expected = 404  # no such message
        assert response.status_code == expected, (method, url, response.text)
    ticket = (await client.get(_url(desk, "globex"))).json()
    assert (ticket["canWrite"], ticket["canClose"]) == (False, False)


@pytest.mark.parametrize("writer", ["alice", "bob", "helene"])
async def test_every_customer_role_writes_on_its_companys_tickets(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, writer: str
) -> None:
    await sign_in(writer)
    response = await _post_message(client, _url(desk, "open"), f"From {writer}")
    assert response.status_code == 201, response.text
    ticket = (await client.get(_url(desk, "open"))).json()
    assert (ticket["canWrite"], ticket["canClose"]) == (True, True)


# --- the conversation --------------------------------------------------------------------------


async def test_messages_are_listed_oldest_first_and_paged(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    url = _url(desk, "solved")
    for number in range(3):
        response = await _post_message(client, url, f"Message *{number}*")
        assert response.status_code == 201, response.text
        message = response.json()
        assert response.headers["location"] == message["@id"]
        assert message["@id"] == f"{url}/messages/{message['id']}"
        assert (await client.get(message["@id"])).json() == message
    listed = await client.get(f"{url}/messages")
    assert listed.status_code == 200, listed.text
    members = listed.json()["hydra:member"]
    assert [m["body"] for m in members] == [f"<p>Message <em>{n}</em></p>\n" for n in range(3)]
    assert {(m["author"], m["authorType"]) for m in members} == {("Bob Durand", "customer")}
    page = (await client.get(f"{url}/messages", params={"itemsPerPage": 2, "page": 2})).json()
    assert (page["hydra:totalItems"], len(page["hydra:member"])) == (3, 1)
    assert page["hydra:member"][0]["body"] == members[2]["body"]
    too_many = await client.get(f"{url}/messages", params={"itemsPerPage": 101})
    assert too_many.status_code == 400


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, dict(attrs)))


def _assert_harmless(html: str) -> None:
    parser = _Elements()
    parser.feed(html)
    for tag, attributes in parser.found:
        assert tag not in {"script", "img", "iframe", "style"}, html
        assert not [name for name in attributes if name.startswith("on")], html
        assert "style" not in attributes, html
        href = (attributes.get("href") or "https:").lower()
        assert href.startswith(("https:", "http:", "mailto:")), html


@pytest.mark.parametrize(
    "markdown",
    [
        "<script>alert(1)</script>",
        '<a href="#" onclick="alert(1)">x</a>',
        "<img src=x onerror=alert(1)>",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "![tracker](https://evil.test/pixel.png)",
        '<p style="x" onmouseover="alert(1)">y</p>',
        "<https://example.test/auto>",
    ],
)
async def test_markdown_is_rendered_and_sanitised(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, markdown: str
) -> None:
    await sign_in("bob")
    response = await _post_message(client, _url(desk, "solved"), markdown)
    assert response.status_code == 201, response.text
    _assert_harmless(response.json()["body"])
    opened = await client.post(TICKETS, json=_new(description=markdown))
    _assert_harmless(opened.json()["description"])


async def test_a_safe_link_is_kept(client: httpx.AsyncClient, desk: Desk, sign_in: SignIn) -> None:
    await sign_in("bob")
    response = await _post_message(client, _url(desk, "solved"), "[ok](https://example.test/a)")
    assert response.json()["body"] == (
        '<p><a href="https://example.test/a" rel="noopener noreferrer">ok</a></p>\n'
    )


async def test_a_message_longer_than_20_000_characters_is_413(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    response = await _post_message(client, _url(desk, "solved"), "x" * 20_001)
    assert response.status_code == 413, response.text
    assert response.json()["detail"] == "A message may be at most 20000 characters long."
    assert (await _post_message(client, _url(desk, "solved"), "x" * 20_000)).status_code == 201
    assert violations(await _post_message(client, _url(desk, "solved"), "")) == {
        "body": ["This value should not be blank."]
    }


async def test_a_message_of_only_spaces_is_blank_and_not_stored(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("helene")
    url = _url(desk, "solved")
    for blank in (" ", "   \n\n\t  ", "\u00a0\u3000"):
        response = await client.post(
            f"{url}/messages", json={"body": blank}, headers={"Accept-Language": "fr"}
        )
        assert violations(response) == {"body": ["Cette valeur ne doit pas être vide."]}, blank
    with Session(world.engine) as session:
        written = session.exec(
            select(TicketMessage.body).where(TicketMessage.author_id == world.users["helene"])
        ).all()
    assert not [body for body in written if not body.strip()]


async def test_a_burst_past_30_messages_a_minute_is_429(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    world.add_user("chatty", "acme", roles=(Role.ACCESS_MONITORING,))
    await sign_in("chatty")
    url = _url(desk, "open")
    for number in range(30):
        response = await _post_message(client, url, f"{number}")
        assert response.status_code == 201, (number, response.text)
    refused = await _post_message(client, url, "one too many")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert (await client.post(TICKETS, json=_new())).status_code == 429
    with Session(world.engine) as session:
        bodies = session.exec(
            select(TicketMessage.body).where(TicketMessage.author_id == world.users["chatty"])
        ).all()
    assert len(bodies) == 30
    # Another user is not held back by it.
    await sign_in("helene")
    assert (await _post_message(client, url, "Me too")).status_code == 201


async def test_the_rate_is_a_setting(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    world.add_user("brief", "acme", roles=(Role.ACCESS_MONITORING,))
    await sign_in("brief")
    with overridden(ticket_messages_per_minute=2):
        for expected in (201, 201, 429):
            response = await _post_message(client, _url(desk, "open"), "Short")
            assert response.status_code == expected, response.text


# --- closing and reopening ---------------------------------------------------------------------


async def test_a_closed_ticket_refuses_messages_and_files_with_409(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    url = _url(desk, "old")
    response = await _post_message(client, url, "Hello?")
    assert response.status_code == 409
    assert response.json()["detail"] == "This ticket is closed: reopen it to write on it."
    files = {"file": ("a.pdf", PDF, "application/pdf")}
    assert (await client.post(f"{url}/attachments", files=files)).status_code == 409
    ticket = (await client.get(url)).json()
    assert (ticket["canWrite"], ticket["canClose"], ticket["reopenableUntil"]) == (
        False,
        False,
        None,
    )


async def test_a_customer_closes_and_reopens_within_14_days(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    url = _url(desk, "closed")
    ticket = (await client.get(url)).json()
    until = datetime.fromisoformat(ticket["reopenableUntil"])
    assert timedelta(days=10) < until - datetime.now(UTC) < timedelta(days=11)
    reopened = await client.patch(url, json={"status": "open"})
    assert reopened.status_code == 200, reopened.text
    assert (reopened.json()["status"], reopened.json()["canWrite"]) == ("open", True)
    again = await client.patch(url, json={"status": "open"})
    assert again.status_code == 409
    headers = {"Content-Type": "application/merge-patch+json"}
    closed = await client.patch(url, content='{"status": "closed"}', headers=headers)
    assert closed.status_code == 200, closed.text
    assert closed.json()["status"] == "closed"
    assert closed.json()["reopenableUntil"] is not None
    assert (await client.patch(url, json={"status": "closed"})).status_code == 409
    late = await client.patch(_url(desk, "old"), json={"status": "open"})
    assert late.status_code == 409
    assert "14 days" in late.json()["detail"]
    assert list(violations(await client.patch(url, json={"status": "solved"}))) == ["status"]
    with Session(world.engine) as session:
        events = session.exec(
            select(TicketEvent.type)
            .where(TicketEvent.ticket_id == desk.tickets["closed"])
            .order_by(col(TicketEvent.id))
        ).all()
    assert events == ["ticketReopened", "ticketClosed"]


# --- files -------------------------------------------------------------------------------------


async def test_files_belong_to_a_message_or_the_ticket_and_download_as_attachments(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, data_dir: Path
) -> None:
    await sign_in("bob")
    url = _url(desk, "solved")
    message = (await _post_message(client, url, "Here is the trace")).json()
    files = {"file": ("../../etc/trace é.pcap", b"\xd4\xc3\xb2\xa1" + b"\x00" * 20, "text/html")}
    stored = await client.post(f"{url}/attachments", files=files, data={"message": message["id"]})
    assert stored.status_code == 201, stored.text
    attachment = stored.json()
    assert attachment["name"] == "trace é.pcap"
    assert attachment["contentType"] == "application/vnd.tcpdump.pcap"
    assert attachment["size"] == 24
    listed = (await client.get(f"{url}/messages")).json()["hydra:member"]
    mine = next(m for m in listed if m["id"] == message["id"])
    assert mine["attachments"] == [attachment]
    image = await client.post(f"{url}/attachments", files={"file": ("x.png", PNG, "image/png")})
    assert image.status_code == 201, image.text
    ticket = (await client.get(url)).json()
    assert [a["filename"] for a in ticket["attachments"]] == ["x.png"]
    download = await client.get(image.json()["url"])
    assert download.status_code == 200
    assert download.content == PNG
    assert download.headers["content-type"] == "image/png"
    assert download.headers["content-disposition"].startswith("attachment")
    assert download.headers["x-content-type-options"] == "nosniff"
    _assert_stored_inside(data_dir)


def _assert_stored_inside(data_dir: Path) -> None:
    for path in data_dir.rglob("*"):
        assert path.resolve().is_relative_to(data_dir.resolve())
        assert path.name.isascii()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("page.html", b"<html><script>alert(1)</script>"),  # text, served as text/plain
        ("report.pdf", PDF),
        ("graph.gif", b"GIF89a" + b"\x00" * 10),
        ("shot.jpg", b"\xff\xd8\xff\xe0" + b"\x00" * 10),
        ("shot.webp", b"RIFF\x00\x00\x00\x00WEBPVP8 "),
        ("logs.zip", b"PK\x03\x04" + b"\x00" * 10),
        ("capture.pcapng", b"\x0a\x0d\x0d\x0a" + b"\x00" * 10),
        ("lines.csv", b"a;b\n1;2\n"),
        ("router.log", "03:12 LOS é\n".encode()),
    ],
)
async def test_the_allowed_types_are_read_from_the_bytes(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn, name: str, content: bytes
) -> None:
    await sign_in("helene")
    url = _url(desk, "open")
    message = (await _post_message(client, url, name)).json()
    files = {"file": (name, content, "application/octet-stream")}
    response = await client.post(f"{url}/attachments", files=files, data={"message": message["id"]})
    assert response.status_code == 201, response.text
    expected = {
        "page.html": "text/plain",
        "report.pdf": "application/pdf",
        "graph.gif": "image/gif",
        "shot.jpg": "image/jpeg",
        "shot.webp": "image/webp",
        "logs.zip": "application/zip",
        "capture.pcapng": "application/x-pcapng",
        "lines.csv": "text/csv",
        "router.log": "text/plain",
    }
    assert response.json()["contentType"] == expected[name]


async def test_other_files_are_refused(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    url = _url(desk, "open")
    for name, content in [
        ("tool.exe", b"MZ\x90\x00\x03\x00\x00\x00"),
        ("fake.pdf", b"\x00\x01binary"),
        ("empty.txt", b""),
    ]:
        response = await client.post(f"{url}/attachments", files={"file": (name, content)})
        assert list(violations(response)) == ["file"], name
    assert list(violations(await client.post(f"{url}/attachments"))) == ["file"]
    other = (await _post_message(client, _url(desk, "solved"), "Another ticket's")).json()
    files = {"file": ("a.pdf", PDF)}
    response = await client.post(f"{url}/attachments", files=files, data={"message": other["id"]})
    assert list(violations(response)) == ["message"]


async def test_at_most_10_files_a_message_and_the_size_limit(
    client: httpx.AsyncClient, desk: Desk, sign_in: SignIn
) -> None:
    await sign_in("bob")
    url = _url(desk, "open")
    message = (await _post_message(client, url, "Ten files")).json()
    for number in range(10):
        files = {"file": (f"f{number}.txt", b"line\n")}
        response = await client.post(
            f"{url}/attachments", files=files, data={"message": message["id"]}
        )
        assert response.status_code == 201, response.text
    files = {"file": ("f10.txt", b"line\n")}
    response = await client.post(f"{url}/attachments", files=files, data={"message": message["id"]})
    assert list(violations(response)) == ["file"]
    with overridden(ticket_attachment_max_bytes=1024 * 1024):
        big = {"file": ("big.txt", b"x" * (1024 * 1024 + 1))}
        response = await client.post(f"{url}/attachments", files=big)
        assert response.status_code == 413
        assert response.json()["detail"] == "The file is larger than the limit of 1 MB."


# --- read marks --------------------------------------------------------------------------------


async def test_a_provider_reply_is_unread_until_the_conversation_is_read(
    client: httpx.AsyncClient, world: World, desk: Desk, sign_in: SignIn
) -> None:
    with Session(world.engine) as session:
        ticket = session.get_one(Ticket, desk.tickets["solved"])
        reply = TicketMessage(
            ticket_id=ticket.id,
            author_type=AuthorType.PROVIDER,
            author_name="Ana Silva",
            body="Fixed.",
            body_html="<p>Fixed.</p>",
        )
        ticket.last_reply_at = reply.created
        session.add_all([reply, ticket])
        session.commit()

    async def unread(reader: str) -> bool:
        await sign_in(reader)
        listed = (await client.get(TICKETS, params={"id": "505"})).json()["hydra:member"]
        item = (await client.get(_url(desk, "solved"))).json()
        assert listed[0]["hasUnreadReply"] is item["hasUnreadReply"]
        return bool(item["hasUnreadReply"])

    assert await unread("alice")
    assert await unread("bob")
    assert (await client.put(_url(desk, "solved", "/read"))).status_code == 204
    assert not await unread("bob")
    assert await unread("alice")  # marks are each user's own
    messages = (await client.get(_url(desk, "solved", "/messages"))).json()["hydra:member"]
    assert messages[-1]["authorType"] == "provider"
    assert messages[-1]["author"] == "Ana Silva"
