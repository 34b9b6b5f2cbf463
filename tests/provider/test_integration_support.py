"""Integration API: tickets (sanitised HTML, attachments) and maintenances (impacted services
and contacts)."""

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session, select

from portal.provider.platform.db import preload
from portal.provider.platform.models import Maintenance, MaintenanceService, Service, Ticket
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import (
    PDF,
    add_service_type,
    counts,
    put,
    token_headers,
    violations,
)

TICKET = {
    "reference": "HD-1",
    "number": 88231,
    "company": "C-ACME",
    "name": "Packet loss",
    "subject": "Packet loss since 09:40",
    "status": "inProgress",
    "priority": "high",
    "dateCreated": "2026-11-20T10:52:00+01:00",
    "description": '<p onclick="steal()">Loss <b>2 %</b><script>alert(1)</script>'
    '<a href="javascript:alert(1)">here</a></p>',
    "requesterEmail": "alice@acme-networks.test",
    "serviceReference": "PB-1",
}
MAINTENANCE = {
    "reference": "MNT-1",
    "name": "Line card replacement",
    "type": "preventive",
    "classification": "outage",
    "status": "scheduled",
    "dateStart": "2026-12-02T01:00:00Z",
    "dateEnd": "2026-12-02T05:00:00Z",
    "services": ["PB-1", "PB-2"],
    "contacts": ["noc@acme-networks.test", "ops@acme-networks.test"],
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(get_settings(), "data_dir", tmp_path)
        yield tmp_path


@pytest.fixture(scope="module")
def catalogue(world: World) -> None:
    add_service_type(world.engine)


@pytest.fixture
async def headers(client: httpx.AsyncClient, world: World, catalogue: None) -> dict[str, str]:
    headers = token_headers(world)
    await counts(client, "companies", [{"reference": "C-ACME", "name": "Acme Networks"}], headers)
    services = [
        {"reference": ref, "company": "C-ACME", "type": "ip_transit", "status": "active"}
        for ref in ("PB-1", "PB-2", "PB-3")
    ]
    await counts(client, "services", services, headers)
    return headers


def ticket(world: World, reference: str) -> Ticket:
    with Session(world.engine) as session:
        statement = select(Ticket).where(Ticket.reference == reference)
        return session.exec(statement.options(*preload(Ticket.attachments))).one()


def maintenance(world: World, reference: str) -> Maintenance:
    with Session(world.engine) as session:
        statement = select(Maintenance).where(Maintenance.reference == reference)
        options = preload(Maintenance.services, Maintenance.contacts)
        return session.exec(statement.options(*options)).one()


async def test_a_ticket_is_created_sanitised_updated_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    assert await counts(client, "tickets", [TICKET], headers) == (1, 0, 0)
    stored = ticket(world, "HD-1")
    assert stored.number == 88231
    assert stored.company_id == world.companies["acme"]
    assert stored.date_created.isoformat() == "2026-11-20T09:52:00+00:00"
    assert "<b>2 %</b>" in stored.description_html
    for unsafe in ("script", "onclick", "javascript"):
        assert unsafe not in stored.description_html
    assert await counts(client, "tickets", [TICKET], headers) == (0, 0, 1)
    closed = {**TICKET, "status": "closed"}
    assert await counts(client, "tickets", [closed], headers) == (0, 1, 0)
    assert ticket(world, "HD-1").status == "closed"


def service_id(world: World, reference: str) -> uuid.UUID:
    with Session(world.engine) as session:
        return session.exec(select(Service.id).where(Service.reference == reference)).one()


async def test_a_ticket_names_its_service_by_id_as_its_reference_changes(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    # Issue 53: a limited user's tickets are found by the ticket's service id, kept with the
    # reference by every write, and filled in when the service arrives after the ticket.
    about = {**TICKET, "reference": "HD-SVC", "number": 77001}
    await counts(client, "tickets", [about], headers)
    assert ticket(world, "HD-SVC").service_id == service_id(world, "PB-1")
    assert await counts(client, "tickets", [{**about, "serviceReference": "PB-2"}], headers) == (
        0,
        1,
        0,
    )
    assert ticket(world, "HD-SVC").service_id == service_id(world, "PB-2")
    await counts(client, "tickets", [{**about, "serviceReference": None}], headers)
    assert ticket(world, "HD-SVC").service_id is None
    await counts(client, "tickets", [{**about, "serviceReference": "PB-LATE"}], headers)
    assert ticket(world, "HD-SVC").service_id is None
    untouched = {key: value for key, value in about.items() if key != "serviceReference"}
    await counts(client, "tickets", [{**untouched, "status": "open"}], headers)
    assert ticket(world, "HD-SVC").service_reference == "PB-LATE"
    late = {"reference": "PB-LATE", "company": "C-ACME", "type": "ip_transit", "status": "active"}
    assert await counts(client, "services", [late], headers) == (1, 0, 0)
    assert ticket(world, "HD-SVC").service_id == service_id(world, "PB-LATE")


async def test_ticket_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    await counts(client, "tickets", [TICKET], headers)
    body = [
        {**TICKET, "reference": "HD-OK", "number": 1},
        {**TICKET, "reference": "HD-2", "number": 88231},  # HD-1's number
        {**TICKET, "reference": "HD-3", "number": 3, "priority": "whenever"},
        {**TICKET, "reference": "HD-4", "number": 1},
        {**TICKET, "reference": "HD-5", "number": 5, "requesterEmail": "nope"},
    ]
    assert violations(await put(client, "tickets", body, headers)) == [
        "[1].number",
        "[2].priority",
        "[3].number",
        "[4].requesterEmail",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(Ticket).where(Ticket.reference == "HD-OK")).first() is None


async def test_ticket_attachments_are_uploaded(
    client: httpx.AsyncClient, world: World, headers: dict[str, str], data_dir: Path
) -> None:
    await counts(client, "tickets", [TICKET], headers)
    url = "/api/integration/tickets/HD-1/attachments"
    log = {"file": ("traceroute.txt", b"1 10.0.0.1 0.4 ms\n", "text/plain")}
    page = {"file": ("page.html", b"<script>alert(1)</script>", "text/html")}
    report = {"file": ("report.pdf", PDF, "application/pdf")}
    for files in (log, page, report):
        response = await client.put(url, files=files, headers=headers)
        assert response.status_code == 201, response.text
    again = await client.put(url, files=log, headers=headers)
    assert again.json()["status"] == "unchanged"
    attachments = {a.filename: a for a in ticket(world, "HD-1").attachments}
    assert sorted(attachments) == ["page.html", "report.pdf", "traceroute.txt"]
    assert attachments["traceroute.txt"].size == len(b"1 10.0.0.1 0.4 ms\n")
    assert attachments["traceroute.txt"].content_type == "text/plain"
    # HTML is never served as HTML: it is kept as a plain download.
    assert attachments["page.html"].content_type == "application/octet-stream"
    assert (data_dir / attachments["report.pdf"].file_path).read_bytes() == PDF


async def test_a_maintenance_is_created_updated_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    assert await counts(client, "maintenances", [MAINTENANCE], headers) == (1, 0, 0)
    stored = maintenance(world, "MNT-1")
    assert sorted(s.reference for s in stored.services) == ["PB-1", "PB-2"]
    assert sorted(c.email for c in stored.contacts) == [
        "noc@acme-networks.test",
        "ops@acme-networks.test",
    ]
    assert await counts(client, "maintenances", [MAINTENANCE], headers) == (0, 0, 1)
    moved = {**MAINTENANCE, "services": ["PB-3"], "contacts": ["noc@acme-networks.test"]}
    assert await counts(client, "maintenances", [moved], headers) == (0, 1, 0)
    stored = maintenance(world, "MNT-1")
    assert [s.reference for s in stored.services] == ["PB-3"]
    assert [c.email for c in stored.contacts] == ["noc@acme-networks.test"]
    cancelled = {"reference": "MNT-1", **{k: v for k, v in moved.items() if k != "reference"}}
    cancelled["status"] = "cancelled"
    assert await counts(client, "maintenances", [cancelled], headers) == (0, 1, 0)


async def test_a_service_moved_to_another_company_takes_its_maintenances_along(
    client: httpx.AsyncClient, world: World, headers: dict[str, str], sign_in: SignIn
) -> None:
    # A customer's maintenances are read from the links' own copy of the service's company
    # (docs/decisions/maintenance-scope.md): the database must carry the move over to them.
    await counts(client, "companies", [{"reference": "C-GLOBEX", "name": "Globex"}], headers)
    await counts(client, "maintenances", [{**MAINTENANCE, "services": ["PB-3"]}], headers)

    async def seen_by(user: str) -> list[str]:
        await sign_in(user)
        response = await client.get("/api/maintenances")
        assert response.status_code == 200, response.text
        return [item["reference"] for item in response.json()["items"]]

    assert await seen_by("alice") == ["MNT-1"]
    assert await seen_by("claire") == []
    moved = {"reference": "PB-3", "company": "C-GLOBEX", "type": "ip_transit", "status": "active"}
    assert await counts(client, "services", [moved], headers) == (0, 1, 0)
    assert await seen_by("alice") == []
    assert await seen_by("claire") == ["MNT-1"]
    with Session(world.engine) as session:
        link = session.exec(select(MaintenanceService)).one()
        assert link.company_id == world.companies["globex"]


async def test_maintenance_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    body = [
        {**MAINTENANCE, "reference": "MNT-OK"},
        {**MAINTENANCE, "reference": "MNT-2", "services": ["PB-1", "PB-404"]},
        {**MAINTENANCE, "reference": "MNT-3", "dateEnd": "2026-12-01T00:00:00Z"},
        {**MAINTENANCE, "reference": "MNT-4", "classification": "apocalyptic"},
        # Issue 18, item 9: a number was read as seconds since 1970 (0: 1970-01-01).
        {**MAINTENANCE, "reference": "MNT-5", "dateNotification": 0},
    ]
    assert violations(await put(client, "maintenances", body, headers)) == [
        "[1].services[1]",
        "[2].dateEnd",
        "[3].classification",
        "[4].dateNotification",
    ]
    with Session(world.engine) as session:
        statement = select(Maintenance).where(Maintenance.reference == "MNT-OK")
        assert session.exec(statement).first() is None
