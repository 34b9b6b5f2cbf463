"""The demo data (DESIGN sections 5 and 7): seeded once into an empty database, every status
of every entity, the demo accounts with their roles and password, never in production."""

import io
import itertools
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from pypdf import PdfReader
from sqlmodel import Session, col, func, select

from portal.permissions import Role
from portal.provider import seed
from portal.provider.accounts.passwords import verify_password
from portal.provider.billing.invoice_documents import ensure_generated, is_generated
from portal.provider.demo_data.catalogue import SERVICE_TYPES
from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.demo_data.sensors import LOOKUP_VALUES, LOOKUP_VALUES_FR
from portal.provider.demo_data.tickets import HOSTILE
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import (
    Company,
    Invoice,
    InvoiceStatus,
    InvoiceType,
    Maintenance,
    MaintenanceClassification,
    MaintenanceStatus,
    MaintenanceType,
    NoticeAddress,
    RollupResolution,
    Sensor,
    SensorRollup,
    SensorSample,
    SensorStatus,
    Service,
    ServiceStatus,
    ServiceType,
    Termination,
    Ticket,
    TicketPriority,
    TicketStatus,
    User,
    utcnow,
)
from portal.settings import Settings
from tests.provider.settings_override import overridden

DEMO_ROLES = {
    "admin@patchbay.test": {Role.ADMIN},
    "sales@patchbay.test": {Role.SPH_SALES},
    "support@patchbay.test": {Role.SPH_READ_ONLY},
    "usermanager@patchbay.test": {Role.SPH_MANAGE_USERS},
    "alice@acme-networks.test": {
        Role.MANAGE_USERS,
        Role.ACCESS_INVOICES,
        Role.ACCESS_MONITORING,
        Role.REFERENCE_MASTER,
    },
    "bob@acme-networks.test": {Role.ACCESS_MONITORING},
    "claire@globex.test": {Role.MANAGE_USERS, Role.ACCESS_INVOICES},
}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    # The provider's own too: a download reads the files the seed wrote here, not the tree's.
    directory = tmp_path_factory.mktemp("data")
    with overridden(data_dir=directory):
        yield directory


@pytest.fixture(scope="module")
def seeded(engine: sa.Engine, data_dir: Path) -> bool:
    with Session(engine) as session:
        answer = seed.seed_if_empty(session, data_dir)
        session.commit()
    return answer


@pytest.fixture
def db(engine: sa.Engine, seeded: bool) -> Iterator[Session]:
    assert seeded
    with Session(engine) as session:
        yield session


def _values(db: Session, column: Any) -> set[Any]:
    return set(db.exec(select(column).distinct()).all())


def _user(db: Session, email: str) -> User:
    return db.exec(select(User).where(User.email == email)).one()


def test_a_second_call_seeds_nothing(db: Session, data_dir: Path) -> None:
    users = db.exec(select(func.count()).select_from(User)).one()
    assert seed.seed_if_empty(db, data_dir) is False
    assert db.exec(select(func.count()).select_from(User)).one() == users


def test_production_is_never_seeded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    production = Settings(environment="production", secret_key="a-real-secret")
    monkeypatch.setattr(seed, "get_settings", lambda: production)
    empty = create_db_engine(f"sqlite:///{tmp_path / 'production.db'}")
    migrate(empty)
    with Session(empty) as session:
        assert seed.seed_if_empty(session, tmp_path) is False
        assert seed.is_empty(session)
    empty.dispose()
    assert not (tmp_path / "documents").exists()


# --- accounts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("email", "roles"), DEMO_ROLES.items())
def test_demo_accounts_have_their_roles_and_the_demo_password(
    db: Session, email: str, roles: set[Role]
) -> None:
    user = _user(db, email)
    assert set(user.roles) == roles
    assert user.has_accepted_terms
    assert verify_password(user.password_hash, DEMO_PASSWORD)
    assert not verify_password(user.password_hash, "wrong-password")


def test_staff_demo_accounts_belong_to_the_staff_company(db: Session) -> None:
    for email in ("admin@patchbay.test", "sales@patchbay.test", "usermanager@patchbay.test"):
        assert _user(db, email).company.name == "Patchbay"


def test_alice_also_works_for_acme_networks_benelux(db: Session) -> None:
    alice = _user(db, "alice@acme-networks.test")
    assert alice.company.name == "Acme Networks"
    assert [company.name for company in alice.auxiliary_companies] == ["Acme Networks Benelux"]
    assert _user(db, "bob@acme-networks.test").company.name == "Acme Networks"
    assert _user(db, "claire@globex.test").company.name == "Globex"


def test_only_newbie_has_not_accepted_the_terms(db: Session) -> None:
    pending = db.exec(select(User.email).where(col(User.has_accepted_terms).is_(False))).all()
    assert pending == ["newbie@acme-networks.test"]
    assert _user(db, "newbie@acme-networks.test").roles


def test_user_lists_page_and_sales_contacts_have_managers_and_assistants(db: Session) -> None:
    assert db.exec(select(func.count()).select_from(User)).one() >= 25
    sales = _user(db, "sales@patchbay.test")
    assert sales.job is not None
    assert sales.manager is not None
    assert sales.assistants
    assert sales.office_phone
    assert sales.mobile_phone
    acme = db.exec(select(Company).where(Company.name == "Acme Networks")).one()
    assert sales in acme.sales


def test_demo_logins_are_the_accounts_of_the_design(db: Session) -> None:
    logins = seed.demo_logins()
    assert {email for email, _password, _description in logins} == {
        *DEMO_ROLES,
        "newbie@acme-networks.test",
    }
    assert {password for _email, password, _description in logins} == {DEMO_PASSWORD}
    for email, _password, _description in logins:
        assert verify_password(_user(db, email).password_hash, DEMO_PASSWORD)


# --- services ---------------------------------------------------------------------------------


def test_every_service_status_and_type_is_used(db: Session) -> None:
    assert _values(db, Service.status) == set(ServiceStatus)
    used = _values(db, ServiceType.key)
    assert used == {entry.key for entry in SERVICE_TYPES}
    assert db.exec(select(func.count(func.distinct(Service.type_id)))).one() == len(SERVICE_TYPES)
    assert 60 <= db.exec(select(func.count()).select_from(Service)).one() <= 120


def test_acme_sees_services_in_every_status(db: Session) -> None:
    acme = db.exec(select(Company).where(Company.name == "Acme Networks")).one()
    statuses = db.exec(select(Service.status).where(Service.company_id == acme.id)).all()
    assert set(statuses) == set(ServiceStatus)


def test_services_carry_their_details(db: Session) -> None:
    services = db.exec(select(Service)).all()
    under_construction = [s for s in services if s.status is ServiceStatus.UNDER_CONSTRUCTION]
    assert all(service.milestones for service in under_construction)
    assert any(m.completed and m.date for s in under_construction for m in s.milestones)
    assert all(service.endpoint_a is not None for service in services)
    assert any(service.endpoint_b is not None for service in services)
    assert any(service.client_references for service in services)
    assert any(service.delivery_manager_id for service in services)
    assert any(not service.delivery_manager_id for service in services)
    assert all(service.attributes for service in services)
    assert all(service.order_pdf_path for service in services)
    assert {document.kind for service in services for document in service.documents} == {
        "handover",
        "loa",
    }


def test_ending_services_have_terminations_with_documents(db: Session) -> None:
    terminations = db.exec(select(Termination)).all()
    covered = {service.id for termination in terminations for service in termination.services}
    ending = db.exec(
        select(Service.id).where(
            col(Service.status).in_([ServiceStatus.UNDER_TERMINATION, ServiceStatus.TERMINATED])
        )
    ).all()
    assert covered == set(ending)
    assert all(termination.documents for termination in terminations)


def test_documents_are_real_pdfs_under_the_data_directory(db: Session, data_dir: Path) -> None:
    service = db.exec(select(Service)).first()
    assert service is not None
    assert service.order_pdf_path
    paths = {service.order_pdf_path, *(document.file_path for document in service.documents)}
    for relative in paths:
        assert not Path(relative).is_absolute()
        assert (data_dir / relative).read_bytes().startswith(b"%PDF-")


# --- invoices, tickets, maintenances ----------------------------------------------------------


def test_invoices_and_credit_notes_in_every_payment_state(db: Session) -> None:
    assert _values(db, Invoice.status) == set(InvoiceStatus)
    assert _values(db, Invoice.type) == set(InvoiceType)
    overdue = db.exec(
        select(Invoice).where(
            col(Invoice.is_paid).is_(False),
            Invoice.type == InvoiceType.INVOICE,
            Invoice.date_due < utcnow().date(),
        )
    ).all()
    assert overdue
    invoices = db.exec(select(Invoice)).all()
    assert all(invoice.lines and invoice.pdf_path for invoice in invoices)
    assert all(line.service_id for invoice in invoices for line in invoice.lines)
    partly = [invoice for invoice in invoices if invoice.status is InvoiceStatus.PARTIALLY_PAID]
    assert all(0 < invoice.paid < invoice.amount_with_tax for invoice in partly)


def test_every_demo_invoice_has_its_own_pdf_written_on_first_download(
    db: Session, data_dir: Path
) -> None:
    invoices = db.exec(select(Invoice).order_by(col(Invoice.reference))).all()
    paths = [invoice.pdf_path for invoice in invoices]
    assert len(set(paths)) == len(invoices)
    assert all(is_generated(path) for path in paths)
    # None is rendered while seeding, which stays fast.
    assert not any((data_dir / str(path)).exists() for path in paths)
    credit = next(invoice for invoice in invoices if invoice.type is InvoiceType.CREDIT)
    ensure_generated(db, credit, data_dir)
    pdf = (data_dir / str(credit.pdf_path)).read_bytes()
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert f"Avoir {credit.reference}" in text  # Acme's first credit note: Acme is billed in French
    assert credit.lines[0].label.split(" – ")[-1] in text


async def test_the_demo_invoices_add_up_to_the_cent(db: Session, client: httpx.AsyncClient) -> None:
    invoices = db.exec(select(Invoice)).all()
    for invoice in invoices:
        assert invoice.amount == sum((line.amount for line in invoice.lines), Decimal(0))
        assert invoice.amount_with_tax.as_tuple().exponent == -2
    login = {"username": "admin@patchbay.test", "password": DEMO_PASSWORD}
    assert (await client.post("/login", json=login)).status_code == 204
    summary = (await client.get("/api/invoices/summary")).json()
    left = sum((i.amount_with_tax - i.paid for i in invoices if not i.is_paid), Decimal(0))
    assert summary["balance"] == f"{left:.2f}"
    assert Decimal(summary["balance"]) == left
    first = date.fromisoformat(summary["months"][0]["month"] + "-01")
    billed = [invoice for invoice in invoices if invoice.date_invoice >= first]
    assert len(billed) == len(invoices)  # the demo's two years are the chart's 24 months
    invoiced = sum((Decimal(month["invoiced"]) for month in summary["months"]), Decimal(0))
    paid = sum((Decimal(month["paid"]) for month in summary["months"]), Decimal(0))
    assert invoiced == sum((invoice.amount_with_tax for invoice in billed), Decimal(0))
    assert paid == sum((invoice.paid for invoice in billed), Decimal(0))


def test_tickets_in_every_status_and_priority_for_each_customer(db: Session) -> None:
    tickets = db.exec(select(Ticket)).all()
    by_company: dict[object, list[Ticket]] = {}
    for ticket in tickets:
        by_company.setdefault(ticket.company_id, []).append(ticket)
    for own in by_company.values():
        assert {ticket.status for ticket in own} == set(TicketStatus)
        assert {ticket.priority for ticket in own} == set(TicketPriority)
        files = {a.content_type for ticket in own for a in ticket.attachments}
        assert {"application/pdf", "image/png", "text/plain"} <= files
    assert all(ticket.description_html.startswith("<p>") for ticket in tickets)
    assert all(ticket.search_subject for ticket in tickets)
    assert any("é" in ticket.subject for ticket in tickets)  # French customers write French
    html = " ".join(ticket.description_html for ticket in tickets)
    assert "<table>" in html
    assert "<ol>" in html
    assert 'rel="noopener noreferrer"' in html


def test_the_hostile_demo_description_is_stored_defused(db: Session) -> None:
    subjects = (HOSTILE.subject_en, HOSTILE.subject_fr)
    hostile = db.exec(select(Ticket).where(col(Ticket.subject).in_(subjects))).one()
    for forbidden in ("<script", "onerror", "onmouseover", "javascript:", "data:", "<iframe"):
        assert forbidden not in hostile.description_html.lower()


async def test_alice_finds_conversations_and_one_reply_she_has_not_read(
    db: Session, client: httpx.AsyncClient
) -> None:
    login = {"username": "alice@acme-networks.test", "password": DEMO_PASSWORD}
    assert (await client.post("/login", json=login)).status_code == 204
    answer = await client.get("/api/tickets", params={"itemsPerPage": 100})
    tickets = answer.json()["hydra:member"]
    unread = [ticket for ticket in tickets if ticket["hasUnreadReply"]]
    assert [ticket["subject"] for ticket in unread] == ["Attaque DDoS sur nos frontaux web"]
    conversations = []
    for ticket in tickets:
        messages = (await client.get(f"/api/tickets/{ticket['id']}/messages")).json()
        if messages["hydra:member"]:
            conversations.append(messages["hydra:member"])
    assert len(conversations) >= 3
    sides = [{message["authorType"] for message in c} for c in conversations]
    assert all(side == {"customer", "provider"} for side in sides)
    said = [message for conversation in conversations for message in conversation]
    assert any("<strong>" in message["body"] for message in said)  # Markdown, rendered
    assert any("pertes commencent" in message["body"] for message in said)  # Acme: French
    assert any("losses start" in message["body"] for message in said)  # Benelux: English
    files = [file for message in said for file in message["attachments"]]
    assert [file["contentType"] for file in files] == ["text/plain"] * len(files) != []
    download = await client.get(files[0]["url"].removeprefix("/provider"))
    assert download.status_code == 200
    assert download.content


def test_maintenances_in_every_status_classification_and_type(db: Session) -> None:
    maintenances = db.exec(select(Maintenance)).all()
    combinations = {(m.status, m.classification, m.type) for m in maintenances}
    assert combinations == set(
        itertools.product(MaintenanceStatus, MaintenanceClassification, MaintenanceType)
    )
    assert all(maintenance.services and maintenance.contacts for maintenance in maintenances)
    now = utcnow()
    for maintenance in maintenances:
        if maintenance.status is MaintenanceStatus.ONGOING:
            assert maintenance.date_start <= now <= maintenance.date_end
        if maintenance.status is MaintenanceStatus.SCHEDULED:
            assert maintenance.date_start > now


def test_a_company_sends_its_notices_to_extra_addresses_confirmed_or_not(db: Session) -> None:
    acme = db.exec(select(Company).where(Company.name == "Acme Networks")).one()
    addresses = db.exec(select(NoticeAddress).where(NoticeAddress.company_id == acme.id)).all()
    assert {address.confirmed_at is not None for address in addresses} == {True, False}


# --- monitoring -------------------------------------------------------------------------------


def test_sensors_in_every_status_with_lookups_and_path_tags(db: Session) -> None:
    assert _values(db, Sensor.status) == set(SensorStatus)
    sensors = db.exec(select(Sensor)).all()
    lookups = {sensor.value for sensor in sensors if sensor.is_lookup}
    assert {"up", "testing", "down", "noData", "dormant"} <= lookups
    tags = {tag for sensor in sensors for tag in sensor.tags}
    assert {"product_path", "product_path_backup"} <= tags
    assert all(sensor.legend for sensor in sensors)
    assert len({(sensor.group, sensor.device) for sensor in sensors}) > 10


def test_the_monitoring_words_its_states_in_the_companys_language(db: Session) -> None:
    def states(company: str) -> set[str]:
        owner = db.exec(select(Company).where(Company.name == company)).one()
        sensors = db.exec(select(Sensor).where(Sensor.company_id == owner.id)).all()
        return {s.desc_value or "" for s in sensors if s.is_lookup or s.value is None}

    french = {*LOOKUP_VALUES_FR.values(), "En pause", "Aucune donnée reçue"}
    english = {*LOOKUP_VALUES.values(), "Paused", "No data received"}
    acme, globex = states("Acme Networks"), states("Globex")
    assert acme
    assert acme <= french | {"Pas de réponse de l'équipement"}
    assert globex
    assert globex <= english | {"No response from the device"}


def test_some_sensors_keep_a_year_of_history_and_five_minute_detail(db: Session) -> None:
    """As the roll-up job keeps them: raw samples over 48 hours (every five minutes for the
    showcase sensors), hours over 31 days, days over a year."""
    now = utcnow().replace(tzinfo=None)
    per_sensor = db.exec(
        select(SensorSample.sensor_id, func.min(SensorSample.at), func.count())
        .group_by(col(SensorSample.sensor_id))
        .order_by(func.count().desc())
    ).all()
    sensor_id, first, count = per_sensor[0]
    assert now - first.replace(tzinfo=None) <= timedelta(hours=49)
    assert count >= 48 * 12
    # Every sensor but the paused ones (not polled for days) has samples of the last 48 hours.
    polled = select(func.count()).where(Sensor.status != SensorStatus.PAUSED)
    assert len(per_sensor) == db.exec(polled).one()
    for resolution, kept in ((RollupResolution.HOUR, 30), (RollupResolution.DAY, 364)):
        oldest = db.exec(
            select(func.min(SensorRollup.at)).where(
                SensorRollup.sensor_id == sensor_id, SensorRollup.resolution == resolution
            )
        ).one()
        assert oldest is not None
        assert now - oldest.replace(tzinfo=None) >= timedelta(days=kept)


# --- the anchor day ---------------------------------------------------------------------------


def test_demo_anchor_date_pins_the_demo_to_noon_of_that_day(tmp_path: Path) -> None:
    anchored = create_db_engine(f"sqlite:///{tmp_path / 'anchored.db'}")
    migrate(anchored)
    noon = datetime(2031, 6, 15, 12, tzinfo=UTC)
    with overridden(demo_anchor_date="2031-06-15"), Session(anchored) as session:
        assert seed.demo_now() == noon
        assert seed.seed_if_empty(session, tmp_path)
        session.commit()
        newest_sample = session.exec(select(func.max(SensorSample.at))).one()
        ongoing = session.exec(
            select(Maintenance).where(Maintenance.status == MaintenanceStatus.ONGOING)
        ).all()
        alice = _user(session, "alice@acme-networks.test")
        newest_invoice = session.exec(select(func.max(Invoice.date_invoice))).one()
    anchored.dispose()
    assert newest_sample.replace(tzinfo=UTC) == noon
    assert ongoing
    for maintenance in ongoing:
        assert maintenance.date_start.replace(tzinfo=UTC) <= noon
        assert maintenance.date_end.replace(tzinfo=UTC) >= noon
    assert alice.terms_accepted_at is not None
    assert alice.terms_accepted_at.replace(tzinfo=UTC) == datetime(2031, 6, 15, tzinfo=UTC)
    assert date(2031, 6, 1) <= newest_invoice <= date(2031, 6, 15)


def test_without_an_anchor_the_demo_follows_the_clock() -> None:
    with overridden(demo_anchor_date=""):
        before = utcnow()
        moment = seed.demo_now()
    assert before <= moment <= utcnow()
    given = datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
    with overridden(demo_anchor_date="2031-06-15"):
        assert seed.demo_now(given) == given
