"""Delegated access (issue 53): a user limited, in one of their companies, to some services.

On the demo data, an administrator limits Alice (a user manager of Acme, with an auxiliary
company where she stays unlimited) to a few Acme services chosen one by one and by site. She
then walks every read route of the provider: the rows of or about a service (services, their
documents, exports and imports, tickets, maintenances, sensors and charts, the dashboard, the
calendar feed, a personal token's reads) are those of her services only, an item outside them
answers 404, and each of those routes goes through the one scoping helper, which the walk
watches. A read route added without being walked here or listed as exempt fails the table
test. A limited user manager can neither lift her own limit nor give more than she has.
"""

import csv
import io
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select
from sqlmodel import delete as sa_delete

from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.platform import scoping
from portal.provider.platform.mail.notices import announce, send_due_notices
from portal.provider.platform.mail.tickets import ticket_mail_recipients
from portal.provider.platform.models import (
    AuditLog,
    Endpoint,
    Invoice,
    Maintenance,
    MaintenanceNotices,
    MaintenanceService,
    MaintenanceStatus,
    NoticeEvent,
    OutboxMail,
    Sensor,
    Service,
    ServiceDocument,
    ServiceStatus,
    TerminationDocument,
    TerminationService,
    Ticket,
    TicketAttachment,
    TicketMessage,
    TicketNotices,
    User,
    UserAuxiliaryCompany,
    WebhookEndpoint,
)
from portal.provider.routers import ROUTERS
from portal.provider.seed import seed_demo

DEMO_NOW = datetime(2026, 11, 24, 12, tzinfo=UTC)
ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"
ADMIN = "admin@patchbay.test"

# Read routes that a limited user reads whole, with the reason: they hold no row of or about a
# service. Reviewed: a new read route belongs in ``SCOPED`` (and the walk) or here.
EXEMPT = {
    "/api/second_factor": "the caller's own second factor",
    "/api/users": "users are company-wide (docs/decisions/delegated-access.md)",
    "/api/users/{user_id}": "users are company-wide",
    "/api/companies": "companies are company-wide",
    "/api/companies/{company_id}": "companies are company-wide",
    "/api/tokens": "an administrator's integration tokens (staff only)",
    "/api/personal_tokens": "the caller's own tokens",
    "/api/integration/events": "the helpdesk's feed (staff only)",
    "/api/integration/ticket_attachments/{attachment_id}": "the helpdesk's files (staff only)",
    "/api/services/client_reference/download_csv": "the import template: a header line",
    "/api/service_types": "the catalogue of service types",
    "/api/service_types/{type_id}": "the catalogue of service types",
    "/api/calendar_feed": "whether the caller has a feed link",
    "/api/companies/{company_id}/notice_addresses": "a company's notice addresses",
    "/api/notification_preferences": "the caller's own preferences",
    "/api/invoices/summary": "invoices stay company-wide (invoices role)",
    "/api/invoices": "invoices stay company-wide (invoices role)",
    "/api/invoices/{invoice_id:uuid}": "invoices stay company-wide (invoices role)",
    "/api/invoices/{invoice_id:uuid}/pdf": "invoices stay company-wide (invoices role)",
    "/api/audit_log": "staff only",
    "/api/users/{user_id}/access": "the access itself: whether limited, how many services",
    "/api/passkeys": "the caller's own passkeys",
    "/api/companies/{company_id}/sso": "a company's single sign-on (administrators only)",
    "/api/webhooks": "a company's webhooks: none where the caller is limited (tested below)",
    "/api/webhooks/{webhook_id}": "a company's webhooks: none where the caller is limited",
    "/api/webhooks/{webhook_id}/deliveries": "a company's webhooks: none where she is limited",
}
# Read routes whose rows are of or about a service: each is walked below by the limited user,
# and must call the scoping helper while it answers.
SCOPED = {
    "/api/users/{user_id}/dashboard",
    "/api/users/{user_id}/access/{company_id}/services",
    "/api/services/export",
    "/api/services",
    "/api/services/{service_id:uuid}",
    "/api/services/{service_id:uuid}/documents/{document_id}",
    "/api/services/{service_id:uuid}/order_pdf",
    "/api/termination_documents",
    "/api/termination_documents/{document_id}",
    "/api/termination_documents/{document_id}/file",
    "/api/maintenances",
    "/api/maintenances/{maintenance_id}",
    "/feeds/maintenances/{token}.ics",
    "/api/tickets",
    "/api/tickets/{ticket_id}",
    "/api/tickets/{ticket_id}/attachments/{attachment_id}",
    "/api/tickets/{ticket_id}/messages",
    "/api/tickets/{ticket_id}/messages/{message_id}",
    "/api/sensors",
    "/api/sensors/{sensor_id}/chart_legend",
    "/api/sensors/{sensor_id}/chart/svg",
    "/api/sensors/{sensor_id}/chart/data",
}


def _read_routes() -> set[str]:
    return {
        route.path
        for router in ROUTERS
        for route in router.routes
        if "GET" in getattr(route, "methods", ())
    }


def test_every_read_route_is_scoped_or_exempt() -> None:
    routes = _read_routes()
    assert not SCOPED & EXEMPT.keys()
    assert routes - SCOPED - EXEMPT.keys() == set(), "a new read route: walk it or exempt it"
    assert (SCOPED | EXEMPT.keys()) - routes == set(), "a read route is gone: update the lists"


@pytest.fixture(scope="module")
def demo(engine: sa.Engine, tmp_path_factory: pytest.TempPathFactory) -> None:
    data_dir: Path = tmp_path_factory.mktemp("data")
    with Session(engine) as session:
        seed_demo(session, data_dir, now=DEMO_NOW)
        session.commit()


class Estate:
    """What the walk expects, read from the database: Alice's chosen Acme services (S) and
    what she sees with them."""

    def __init__(self, session: Session) -> None:
        self.alice = session.exec(select(User).where(User.email == ALICE)).one()
        self.bob = session.exec(select(User).where(User.email == BOB)).one()
        self.acme = self.alice.company_id
        auxiliary = select(UserAuxiliaryCompany.company_id).where(
            UserAuxiliaryCompany.user_id == self.alice.id
        )
        self.auxiliary = set(session.exec(auxiliary))
        assert self.auxiliary, "the demo gives Alice an auxiliary company"
        acme_services = list(session.exec(select(Service).where(Service.company_id == self.acme)))
        by_reference = {service.reference: service for service in acme_services}
        # One by one: a service a ticket is about, one a maintenance impacts, one with sensors
        # and one ending with a termination document; by site: the A-end site of another.
        ticketed = session.exec(
            select(Ticket.service_reference).where(
                Ticket.company_id == self.acme, col(Ticket.service_reference).in_(by_reference)
            )
        ).first()
        maintained = session.exec(
            select(MaintenanceService.service_id).where(MaintenanceService.company_id == self.acme)
        ).first()
        watched = session.exec(
            select(Sensor.service_id).where(
                Sensor.company_id == self.acme, col(Sensor.service_id).is_not(None)
            )
        ).first()
        ending = session.exec(
            select(TerminationService.service_id)
            .join(Service, col(Service.id) == TerminationService.service_id)
            .where(
                Service.company_id == self.acme,
                col(Service.status).in_(
                    [ServiceStatus.UNDER_TERMINATION, ServiceStatus.TERMINATED]
                ),
            )
        ).first()
        assert ticketed
        assert maintained
        assert watched
        assert ending
        one_by_one = {by_reference[ticketed].id, maintained, watched, ending}
        site_service = next(
            service
            for service in acme_services
            if service.id not in one_by_one and service.endpoint_a_id is not None
        )
        site = session.get(Endpoint, site_service.endpoint_a_id)
        assert site is not None
        self.site = site.name
        endpoints = {
            endpoint.id
            for endpoint in session.exec(select(Endpoint).where(Endpoint.name == site.name))
        }
        at_site = {
            service.id
            for service in acme_services
            if service.endpoint_a_id in endpoints or service.endpoint_b_id in endpoints
        }
        self.one_by_one = one_by_one
        self.chosen = one_by_one | at_site
        assert len(self.chosen) < len(acme_services) / 2, "the limit hides most of Acme"
        auxiliary_services = session.exec(
            select(Service.id).where(col(Service.company_id).in_(self.auxiliary))
        )
        self.services = self.chosen | set(auxiliary_services)
        self.hidden = {service.id for service in acme_services} - self.chosen
        every = {service.id: service for service in session.exec(select(Service))}
        self.references = {every[service].reference for service in self.services}
        self.hidden_references = {every[service].reference for service in self.hidden}
        companies = {self.acme, *self.auxiliary}
        tickets = session.exec(select(Ticket).where(col(Ticket.company_id).in_(companies)))
        self.tickets = {
            ticket.id
            for ticket in tickets
            if ticket.company_id != self.acme
            or ticket.service_reference in self.references
            or ticket.requester_email == ALICE
        }
        self.hidden_tickets = (
            set(session.exec(select(Ticket.id).where(Ticket.company_id == self.acme)))
            - self.tickets
        )
        impacted = select(MaintenanceService.maintenance_id).where(
            col(MaintenanceService.service_id).in_(self.services)
        )
        self.maintenances = set(session.exec(impacted))
        acme_maintenances = select(MaintenanceService.maintenance_id).where(
            MaintenanceService.company_id == self.acme
        )
        self.hidden_maintenances = set(session.exec(acme_maintenances)) - self.maintenances
        sensors = session.exec(select(Sensor).where(col(Sensor.company_id).in_(companies)))
        self.sensors = {
            sensor.id
            for sensor in sensors
            if sensor.company_id != self.acme or sensor.service_id in self.chosen
        }
        self.hidden_sensors = (
            set(session.exec(select(Sensor.id).where(Sensor.company_id == self.acme)))
            - self.sensors
        )
        self.invoices = len(
            session.exec(select(Invoice.id).where(col(Invoice.company_id).in_(companies))).all()
        )
        self.active = sum(
            1
            for service in every.values()
            if service.id in self.services and service.status == ServiceStatus.ACTIVE
        )


@pytest.fixture(scope="module")
def estate(engine: sa.Engine, demo: None) -> Estate:
    with Session(engine) as session:
        return Estate(session)


async def _sign_in(client: httpx.AsyncClient, email: str) -> None:
    await client.post("/logout")
    login = {"username": email, "password": DEMO_PASSWORD}
    response = await client.post("/login", json=login)
    assert response.status_code == 204, response.text


def _access(user: uuid.UUID, company: uuid.UUID | None = None) -> str:
    path = f"/api/users/{user}/access"
    return f"{path}/{company}" if company else path


def _iris(ids: set[uuid.UUID]) -> list[str]:
    return [f"/api/services/{service}" for service in sorted(ids)]


async def test_an_administrator_limits_a_user_and_the_change_is_audited(
    client: httpx.AsyncClient, engine: sa.Engine, estate: Estate
) -> None:
    await _sign_in(client, ADMIN)
    body = {
        "limited": True,
        "services": _iris(estate.one_by_one),
        "sites": [estate.site.upper()],
    }
    response = await client.put(_access(estate.alice.id, estate.acme), json=body)
    assert response.status_code == 200, response.text
    companies = {entry["company"]: entry for entry in response.json()["companies"]}
    acme = companies[f"/api/companies/{estate.acme}"]
    assert (acme["limited"], acme["serviceCount"]) == (True, len(estate.chosen))
    assert all(not entry["limited"] for iri, entry in companies.items() if iri != acme["company"])
    with Session(engine) as session:
        entry = session.exec(select(AuditLog).where(AuditLog.action == "user_access_changed")).one()
    assert entry.actor_id != estate.alice.id
    assert entry.subject_id == estate.alice.id
    assert entry.detail["actor_email"] == ADMIN
    assert entry.detail["subject_email"] == ALICE
    assert entry.detail["limited"] is True
    assert entry.detail["services"] == len(estate.chosen)
    assert entry.detail["limited_before"] is False


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The calls of the one scoping helper, as a route answers."""
    calls: list[Any] = []
    original = scoping.limited_condition

    def watching(principal: Any, company_column: Any, within: Any) -> Any:
        calls.append(company_column)
        return original(principal, company_column, within)

    monkeypatch.setattr(scoping, "limited_condition", watching)
    return calls


class Walk:
    """Visits a route as the limited user, noting the route and that it was scoped."""

    def __init__(self, client: httpx.AsyncClient, calls: list[Any]) -> None:
        self.client = client
        self.calls = calls
        self.visited: set[str] = set()

    async def get(self, route: str, path: str, status: int = 200, **kwargs: Any) -> httpx.Response:
        self.calls.clear()
        response = await self.client.get(path, **kwargs)
        assert response.status_code == status, (path, response.text)
        assert self.calls, f"{route} answered without the scoping helper"
        self.visited.add(route)
        return response

    async def every(self, route: str, path: str, **params: Any) -> list[dict[str, Any]]:
        members: list[dict[str, Any]] = []
        page = 1
        while True:
            query = {"page": page, "itemsPerPage": 100, **params}
            body = (await self.get(route, path, params=query)).json()
            members += body["hydra:member"]
            total = body.get("hydra:totalItems", body.get("totalItems"))
            if page * 100 >= total:
                assert len(members) == total
                return members
            page += 1


@contextmanager
def _hers_from_tomorrow(engine: sa.Engine, ids: set[uuid.UUID]) -> Iterator[None]:
    with Session(engine) as session:
        rows = list(session.exec(select(Maintenance).where(col(Maintenance.id).in_(ids))))
        kept = {row.id: (row.date_start, row.date_end) for row in rows}
        tomorrow = datetime.now(UTC) + timedelta(days=1)
        for row in rows:
            row.date_start, row.date_end = tomorrow, tomorrow + (row.date_end - row.date_start)
            session.add(row)
        session.commit()
    try:
        yield
    finally:
        with Session(engine) as session:
            for row in session.exec(select(Maintenance).where(col(Maintenance.id).in_(ids))):
                row.date_start, row.date_end = kept[row.id]
                session.add(row)
            session.commit()


def _ids(members: list[dict[str, Any]]) -> set[uuid.UUID]:
    return {uuid.UUID(member["id"]) for member in members}


async def test_the_limited_user_sees_only_her_services_on_every_read_route(
    client: httpx.AsyncClient, engine: sa.Engine, estate: Estate, watched: list[Any]
) -> None:
    await _sign_in(client, ALICE)
    walk = Walk(client, watched)
    hidden = sorted(estate.hidden)[0]
    mine = sorted(estate.chosen)[0]
    with Session(engine) as session:
        # Services, their documents and order forms.
        listed = await walk.every("/api/services", "/api/services")
        assert _ids(listed) == estate.services
        searched = await walk.every("/api/services", "/api/services", search=estate.site)
        assert _ids(searched) <= estate.services
        await walk.get("/api/services/{service_id:uuid}", f"/api/services/{mine}")
        await walk.get("/api/services/{service_id:uuid}", f"/api/services/{hidden}", 404)
        documents = session.exec(
            select(ServiceDocument).where(col(ServiceDocument.service_id).in_(estate.hidden))
        ).all()
        assert documents, "the demo has documents of the services she no longer sees"
        for document in documents[:5]:
            await walk.get(
                "/api/services/{service_id:uuid}/documents/{document_id}",
                f"/api/services/{document.service_id}/documents/{document.id}",
                404,
            )
        await walk.get(
            "/api/services/{service_id:uuid}/order_pdf", f"/api/services/{hidden}/order_pdf", 404
        )
        export = await walk.get("/api/services/export", "/api/services/export")
        rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig")), delimiter=";"))
        assert {row[0] for row in rows[1:]} == estate.references
        # Termination documents: those of her ending services only.
        ending = select(TerminationDocument.id, TerminationService.service_id).join(
            TerminationService,
            col(TerminationService.termination_id) == TerminationDocument.termination_id,
        )
        pairs = session.exec(ending).all()
        hidden_documents = {d for d, s in pairs if s in estate.hidden} - {
            d for d, s in pairs if s in estate.services
        }
        termination = await walk.every("/api/termination_documents", "/api/termination_documents")
        assert _ids(termination) == {d for d, s in pairs if s in estate.services}
        assert _ids(termination)
        assert hidden_documents, "the demo has termination documents of hidden services"
        for document_id in sorted(hidden_documents)[:3]:
            route = "/api/termination_documents/{document_id}"
            await walk.get(route, f"/api/termination_documents/{document_id}", 404)
            await walk.get(f"{route}/file", f"/api/termination_documents/{document_id}/file", 404)
        shown = sorted(_ids(termination))[0]
        await walk.get(
            "/api/termination_documents/{document_id}", f"/api/termination_documents/{shown}"
        )
        # Tickets: about her services, or opened by her.
        tickets = await walk.every("/api/tickets", "/api/tickets")
        assert _ids(tickets) == estate.tickets
        assert estate.hidden_tickets
        for ticket_id in sorted(estate.hidden_tickets)[:5]:
            await walk.get("/api/tickets/{ticket_id}", f"/api/tickets/{ticket_id}", 404)
            await walk.get(
                "/api/tickets/{ticket_id}/messages", f"/api/tickets/{ticket_id}/messages", 404
            )
        message = session.exec(
            select(TicketMessage).where(col(TicketMessage.ticket_id).in_(estate.hidden_tickets))
        ).first()
        assert message is not None
        await walk.get(
            "/api/tickets/{ticket_id}/messages/{message_id}",
            f"/api/tickets/{message.ticket_id}/messages/{message.id}",
            404,
        )
        attachment = session.exec(
            select(TicketAttachment).where(
                col(TicketAttachment.ticket_id).in_(estate.hidden_tickets)
            )
        ).first()
        assert attachment is not None
        await walk.get(
            "/api/tickets/{ticket_id}/attachments/{attachment_id}",
            f"/api/tickets/{attachment.ticket_id}/attachments/{attachment.id}",
            404,
        )
        own_ticket = sorted(estate.tickets)[0]
        await walk.get("/api/tickets/{ticket_id}", f"/api/tickets/{own_ticket}")
        # Maintenances: those touching her services, and within them her services only.
        maintenances = await walk.every(
            "/api/maintenances", "/api/maintenances", **{"order[dateStart]": "asc"}
        )
        assert _ids(maintenances) == estate.maintenances
        for member in maintenances[:10]:
            route = "/api/maintenances/{maintenance_id}"
            detail = (await walk.get(route, member["@id"])).json()
            assert {uuid.UUID(s["id"]) for s in detail["services"]} <= estate.services
        assert estate.hidden_maintenances
        for maintenance_id in sorted(estate.hidden_maintenances)[:5]:
            await walk.get(
                "/api/maintenances/{maintenance_id}", f"/api/maintenances/{maintenance_id}", 404
            )
        # Sensors and their charts.
        sensors = (await walk.get("/api/sensors", "/api/sensors")).json()
        assert _ids(sensors["items"]) == estate.sensors
        assert sensors["totalItems"] == len(estate.sensors)
        assert estate.hidden_sensors
        for sensor_id in sorted(estate.hidden_sensors)[:3]:
            route = "/api/sensors/{sensor_id}/chart_legend"
            await walk.get(route, f"/api/sensors/{sensor_id}/chart_legend", 404)
            for drawn in ("svg", "data"):
                await walk.get(
                    f"/api/sensors/{{sensor_id}}/chart/{drawn}",
                    f"/api/sensors/{sensor_id}/chart/{drawn}",
                    404,
                    params={"span": "last_2_hours"},
                )
        # The dashboard's counters.
        dashboard = (
            await walk.get(
                "/api/users/{user_id}/dashboard", f"/api/users/{estate.alice.id}/dashboard"
            )
        ).json()
        assert dashboard["nbActiveServices"] == estate.active
        ticket_rows = session.exec(select(Ticket).where(col(Ticket.id).in_(estate.tickets)))
        assert dashboard["nbOpenTickets"] == sum(
            1 for ticket in ticket_rows if ticket.status != "closed"
        )
    # Her access: limited in Acme, to her services.
    access = await client.get(_access(estate.alice.id))
    acme = next(c for c in access.json()["companies"] if c["id"] == str(estate.acme))
    assert acme["limited"] is True
    granted = await walk.every(
        "/api/users/{user_id}/access/{company_id}/services",
        f"{_access(estate.alice.id, estate.acme)}/services",
    )
    assert _ids(granted) == estate.chosen
    # The calendar feed, read with its link alone. It holds the maintenances of the last three
    # months and after as of today, whatever day the tests run on (CI moves the clock): her
    # maintenances are there for the read, moved to start tomorrow, then put back.
    created = await client.post("/api/calendar_feed")
    assert created.status_code == 201, created.text
    with _hers_from_tomorrow(engine, estate.maintenances):
        async with httpx.AsyncClient(transport=client._transport, base_url=client.base_url) as bare:
            walk.client = bare
            feed = await walk.get("/feeds/maintenances/{token}.ics", created.json()["path"])
            walk.client = client
    text = feed.content.decode()
    assert text.count("BEGIN:VEVENT") == len(estate.maintenances)
    assert not {reference for reference in estate.hidden_references if reference in text}
    assert walk.visited == SCOPED
    # Invoices stay company-wide.
    invoices = (await client.get("/api/invoices", params={"itemsPerPage": 1})).json()
    assert invoices["hydra:totalItems"] == estate.invoices


def test_the_e_mails_a_limited_user_gets_are_about_her_services(
    engine: sa.Engine, estate: Estate
) -> None:
    with Session(engine) as session:
        alice = session.get_one(User, estate.alice.id)
        alice.ticket_notices = TicketNotices.ALL
        alice.maintenance_notices = MaintenanceNotices.ALL
        session.add(alice)
        session.commit()
        # Ticket e-mails: those she sees, as every user taking them all; not the others.
        for ticket_id in sorted(estate.hidden_tickets)[:5]:
            ticket = session.get_one(Ticket, ticket_id)
            assert ALICE not in {u.email for u in ticket_mail_recipients(session, ticket)}
        seen = [
            session.get_one(Ticket, t)
            for t in sorted(estate.tickets)
            if session.get_one(Ticket, t).company_id == estate.acme
        ]
        assert seen
        for ticket in seen[:5]:
            assert ALICE in {u.email for u in ticket_mail_recipients(session, ticket)}
        # Maintenance notices: one touching her services and others of Acme tells hers only;
        # one touching only others of Acme is not sent to her.
        links = session.exec(
            select(MaintenanceService.maintenance_id, MaintenanceService.service_id).where(
                MaintenanceService.company_id == estate.acme
            )
        ).all()
        touched: dict[uuid.UUID, set[uuid.UUID]] = {}
        for maintenance_id, service_id in links:
            touched.setdefault(maintenance_id, set()).add(service_id)
        # Not a cancelled one: a notice first told of a cancellation is not sent at all.
        shared = min(
            m
            for m, s in touched.items()
            if s & estate.chosen
            and s & estate.hidden
            and session.get_one(Maintenance, m).status != MaintenanceStatus.CANCELLED
        )
        hidden = sorted(estate.hidden_maintenances)[0]
        for maintenance_id in (shared, hidden):
            announce(session, maintenance_id, NoticeEvent.SCHEDULED, [estate.acme])
        session.exec(sa_delete(OutboxMail))
        session.commit()
        references = {m: session.get_one(Maintenance, m).reference for m in (shared, hidden)}
    send_due_notices(engine, now=datetime.now(UTC) + timedelta(days=1))
    with Session(engine) as session:
        mails = session.exec(select(OutboxMail).where(OutboxMail.recipient.contains(ALICE))).all()
    about = {
        reference: [mail for mail in mails if reference in mail.subject]
        for reference in references.values()
    }
    assert about[references[hidden]] == []
    assert len(about[references[shared]]) == 1
    text = about[references[shared]][0].body
    hers = {r for r in estate.references if r in text}
    assert hers
    assert not {r for r in estate.hidden_references if r in text}


async def test_a_personal_token_reads_as_its_limited_owner(
    client: httpx.AsyncClient, estate: Estate
) -> None:
    await _sign_in(client, ALICE)
    expires = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    body = {"name": "NOC", "scopes": ["services", "tickets"], "expiresAt": expires}
    made = await client.post("/api/personal_tokens", json=body)
    assert made.status_code == 201, made.text
    headers = {"Authorization": f"Bearer {made.json()['token']}"}
    async with httpx.AsyncClient(transport=client._transport, base_url=client.base_url) as bare:
        services = await bare.get("/api/services?itemsPerPage=0", headers=headers)
        assert services.json()["hydra:totalItems"] == len(estate.services)
        hidden = sorted(estate.hidden)[0]
        assert (await bare.get(f"/api/services/{hidden}", headers=headers)).status_code == 404
        tickets = await bare.get("/api/tickets?itemsPerPage=0", headers=headers)
        assert tickets.json()["hydra:totalItems"] == len(estate.tickets)


async def test_imports_reach_only_her_services(client: httpx.AsyncClient, estate: Estate) -> None:
    await _sign_in(client, ALICE)
    hidden = sorted(estate.hidden_references)[0]
    mine = sorted(estate.references)[0]
    body = {"reference": hidden, "clientReferences": "X-1"}
    assert (await client.post("/api/services/client_reference", json=body)).status_code == 404
    content = f"reference;clientReferences\r\n{mine};X-2\r\n{hidden};X-3\r\n".encode()
    files = {"file": ("references.csv", content, "text/csv")}
    response = await client.post("/api/services/client_reference/import", files=files)
    assert response.status_code == 422, response.text
    violations = response.json()["violations"]
    assert [(v["propertyPath"], hidden in v["message"]) for v in violations] == [("line 3", True)]
    content = f"reference;clientReferences\r\n{mine};X-2\r\n".encode()
    files = {"file": ("references.csv", content, "text/csv")}
    response = await client.post("/api/services/client_reference/import", files=files)
    assert response.status_code == 200, response.text


async def test_a_limited_user_manager_cannot_widen_access(
    client: httpx.AsyncClient, estate: Estate
) -> None:
    await _sign_in(client, ALICE)
    own = _access(estate.alice.id, estate.acme)
    refused = await client.put(own, json={"limited": False})
    assert refused.status_code == 403, refused.text
    bob = _access(estate.bob.id, estate.acme)
    assert (await client.put(bob, json={"limited": False})).status_code == 403
    outside = sorted(estate.hidden)[0]
    chosen = _iris({*estate.one_by_one, outside})
    response = await client.put(bob, json={"limited": True, "services": chosen})
    assert response.status_code == 422, response.text
    position = chosen.index(f"/api/services/{outside}")
    paths = [v["propertyPath"] for v in response.json()["violations"]]
    assert paths == [f"services[{position}]"]
    some = set(sorted(estate.one_by_one)[:2])
    response = await client.put(bob, json={"limited": True, "services": _iris(some)})
    assert response.status_code == 200, response.text
    acme = next(c for c in response.json()["companies"] if c["id"] == str(estate.acme))
    assert acme["serviceCount"] == 2
    # She may narrow her own access: the next request sees the new set, no new login.
    narrower = {"limited": True, "services": _iris(estate.one_by_one)}
    assert (await client.put(own, json=narrower)).status_code == 200
    listed = (await client.get("/api/services?itemsPerPage=0")).json()
    assert listed["hydra:totalItems"] == len(estate.services - (estate.chosen - estate.one_by_one))


async def test_who_may_read_and_change_access(
    client: httpx.AsyncClient, estate: Estate, engine: sa.Engine
) -> None:
    with Session(engine) as session:
        claire = session.exec(select(User).where(User.email == "claire@globex.test")).one()
    await _sign_in(client, BOB)
    # Bob reads his own access, not Alice's, and changes nobody's.
    assert (await client.get(_access(estate.bob.id))).status_code == 200
    assert (await client.get(_access(estate.alice.id))).status_code == 403
    body = {"limited": False}
    assert (await client.put(_access(estate.bob.id, estate.acme), json=body)).status_code == 403
    # Another company's user is not found, nor a company the user is not in.
    await _sign_in(client, "claire@globex.test")
    assert (await client.get(_access(estate.alice.id))).status_code == 404
    put = await client.put(_access(estate.alice.id, estate.acme), json=body)
    assert put.status_code == 404
    assert (await client.put(_access(claire.id, estate.acme), json=body)).status_code == 404
    # Bad input is a 422 with its violations.
    bad = {"limited": True, "services": ["nonsense"], "clientReferencePrefixes": ["ZZZ-NONE"]}
    response = await client.put(_access(claire.id, claire.company_id), json=bad)
    assert response.status_code == 422, response.text
    paths = {v["propertyPath"] for v in response.json()["violations"]}
    assert paths == {"services[0]", "clientReferencePrefixes[0]"}
    response = await client.put(_access(claire.id, claire.company_id), json={"limited": True})
    assert response.status_code == 422
    assert (await client.put(_access(claire.id, claire.company_id), json={})).status_code == 422
    # The users list says who is limited.
    await _sign_in(client, ALICE)
    users = (await client.get("/api/users", params={"itemsPerPage": 100})).json()
    limited = {m["email"]: m["limitedCompanies"] for m in users["hydra:member"]}
    assert limited[ALICE] == [f"/api/companies/{estate.acme}"]
    assert limited[BOB] == [f"/api/companies/{estate.acme}"]
    assert all(not value for email, value in limited.items() if email not in (ALICE, BOB))


async def test_a_limited_user_manager_manages_no_webhook_of_that_company(
    client: httpx.AsyncClient, estate: Estate, engine: sa.Engine
) -> None:
    """A company's webhooks carry all of its events: where Alice is limited she neither sees
    nor registers any."""
    with Session(engine) as session:
        endpoint = WebhookEndpoint(
            company_id=estate.acme,
            url="https://hooks.example.net/acme",
            description="Acme's NOC",
            event_types=["ticket.created"],
            secret="",
        )
        session.add(endpoint)
        session.commit()
        endpoint_id = endpoint.id
    await _sign_in(client, ALICE)
    listed = (await client.get("/api/webhooks")).json()
    assert str(endpoint_id) not in {member["id"] for member in listed["hydra:member"]}
    assert (await client.get(f"/api/webhooks/{endpoint_id}")).status_code == 404
    deliveries = await client.get(f"/api/webhooks/{endpoint_id}/deliveries")
    assert deliveries.status_code == 404
    body = {
        "url": "https://hooks.example.net/acme",
        "eventTypes": ["ticket.created"],
        "company": f"/api/companies/{estate.acme}",
    }
    refused = await client.post("/api/webhooks", json=body)
    assert refused.status_code == 422, refused.text
    company = [v for v in refused.json()["violations"] if v["propertyPath"] == "company"]
    assert len(company) == 1
    assert "limited" in company[0]["message"]


async def test_lifting_the_limit_gives_every_service_back(
    client: httpx.AsyncClient, estate: Estate, engine: sa.Engine
) -> None:
    await _sign_in(client, ADMIN)
    response = await client.put(_access(estate.alice.id, estate.acme), json={"limited": False})
    assert response.status_code == 200, response.text
    await _sign_in(client, ALICE)
    with Session(engine) as session:
        companies = {estate.acme, *estate.auxiliary}
        every = session.exec(select(Service.id).where(col(Service.company_id).in_(companies)))
        count = len(every.all())
    listed = (await client.get("/api/services?itemsPerPage=0")).json()
    assert listed["hydra:totalItems"] == count
