"""Services, documents, terminations, maintenances and invoices for the services tests.

Acme (with Acme Benelux as alice's auxiliary company) and Globex each have services in every
status; one maintenance impacts services of both, so each sees it with its own services only.
Document files are written under a temporary data directory that the settings point to.
"""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.platform.models import (
    DocumentKind,
    Endpoint,
    Invoice,
    InvoiceLine,
    InvoiceStatus,
    InvoiceType,
    Maintenance,
    MaintenanceClassification,
    MaintenanceContact,
    MaintenanceStatus,
    MaintenanceType,
    MilestoneName,
    Service,
    ServiceAttribute,
    ServiceDocument,
    ServiceMilestone,
    ServiceStatus,
    ServiceType,
    Termination,
    TerminationDocument,
)
from portal.settings import get_settings
from tests.provider.conftest import World

PDF = b"%PDF-1.4\n% test document\n"


@dataclass
class Catalogue:
    """Ids by short name: types by key, services by reference, and the other rows by name."""

    data_dir: Path
    types: dict[str, uuid.UUID] = field(default_factory=dict)
    services: dict[str, uuid.UUID] = field(default_factory=dict)
    documents: dict[str, uuid.UUID] = field(default_factory=dict)
    maintenances: dict[str, uuid.UUID] = field(default_factory=dict)
    invoices: dict[str, uuid.UUID] = field(default_factory=dict)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("data")
    (directory / "documents").mkdir()
    for name in ("handover.pdf", "loa.pdf", "order.pdf", "termination.pdf", "invoice.pdf"):
        (directory / "documents" / name).write_bytes(PDF + name.encode())
    (directory.parent / "secret.txt").write_text("outside the data directory")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATA_DIR", str(directory))
        get_settings.cache_clear()
        yield directory
    get_settings.cache_clear()


def _types(session: Session, catalogue: Catalogue) -> dict[str, ServiceType]:
    entries = [
        ("ethernet_epl", "Ethernet private line (EPL)", "Ligne privée Ethernet (EPL)"),
        ("wavelength_100g", "Wavelength 100G", "Longueur d'onde 100G"),
        ("dark_fibre_metro", "Dark fibre – metro", "Fibre noire – métropolitaine"),
        ("colocation_rack", "Colocation – full rack", "Colocation – baie complète"),
        ("ip_transit", "IP transit", "Transit IP"),
    ]
    types = {}
    for position, (key, label_en, label_fr) in enumerate(entries):
        types[key] = ServiceType(key=key, label_en=label_en, label_fr=label_fr, position=position)
        session.add(types[key])
        catalogue.types[key] = types[key].id
    return types


def _service(
    session: Session,
    world: World,
    service_type: ServiceType,
    company: str,
    reference: str,
    status: ServiceStatus,
    started: date | None,
    places: tuple[tuple[str, str], ...],
    client_references: tuple[str, ...] = (),
) -> Service:
    endpoints = [Endpoint(name=name, city=city, country="France") for name, city in places]
    service = Service(
        reference=reference,
        company_id=world.companies[company],
        type_id=service_type.id,
        status=status,
        date_start=started,
        client_references=list(client_references),
        order_reference=f"BC-{reference}",
        order_pdf_path="documents/order.pdf",
        order_pdf_name=f"BC-{reference}.pdf",
    )
    service.type = service_type
    service.endpoint_a = endpoints[0] if endpoints else None
    service.endpoint_b = endpoints[1] if len(endpoints) > 1 else None
    session.add(service)
    return service


def build_catalogue(world: World, data_dir: Path) -> Catalogue:
    """The module's services and the rows around them; adds the users the tests need."""
    world.add_user("rita", "acme", roles=(Role.REFERENCE_MASTER,), firstname="Rita")
    world.add_user(
        "gina", "globex", roles=(Role.REFERENCE_MASTER, Role.ACCESS_INVOICES), firstname="Gina"
    )
    catalogue = Catalogue(data_dir)
    with Session(world.engine) as session:
        types = _types(session, catalogue)
        services = [
            _service(
                session, world, types["ethernet_epl"], "acme", "PB-ETH-1001", ServiceStatus.ACTIVE,
                date(2024, 1, 10), (("Équinix PA2", "Saint-Denis"), ("Telehouse 2", "Paris")),
                ("ACME-PAR-001", "PO-2024-0001"),
            ),
            _service(
                session, world, types["wavelength_100g"], "acme", "PB-WAV-1002",
                ServiceStatus.UNDER_CONSTRUCTION, None, (("Data4 Marcoussis", "Marcoussis"),),
            ),
            _service(
                session, world, types["dark_fibre_metro"], "acme", "PB-DFB-1003",
                ServiceStatus.TERMINATED, date(2020, 5, 1), (("Site Nord", "Lille"),),
                ("ACME-LIL-002",),
            ),
            _service(
                session, world, types["colocation_rack"], "acme", "PB-COL-1004",
                ServiceStatus.UNDER_TERMINATION, date(2022, 3, 1), (("Interxion PAR7", "Paris"),),
            ),
            _service(
                session, world, types["ip_transit"], "benelux", "PB-IPT-2001",
                ServiceStatus.ACTIVE, date(2023, 6, 1), (("Interxion AMS5", "Amsterdam"),),
            ),
            _service(
                session, world, types["ethernet_epl"], "globex", "PB-ETH-3001",
                ServiceStatus.ACTIVE, date(2021, 2, 2), (("Lyon Part-Dieu", "Lyon"),),
                ("GLX-LYO-007",),
            ),
            _service(
                session, world, types["dark_fibre_metro"], "globex", "PB-DFB-3002",
                ServiceStatus.TERMINATED, date(2019, 9, 9), (("Site Sud", "Marseille"),),
            ),
        ]  # fmt: skip
        by_reference = {service.reference: service for service in services}
        _details(session, world, by_reference, catalogue)
        _terminations(session, by_reference, catalogue)
        _maintenances(session, by_reference, catalogue)
        _invoices(session, world, by_reference, catalogue)
        session.commit()
        catalogue.services = {service.reference: service.id for service in services}
    return catalogue


def _details(
    session: Session, world: World, services: dict[str, Service], catalogue: Catalogue
) -> None:
    active = services["PB-ETH-1001"]
    active.delivery_manager_id = world.users["admin"]
    active.attributes = [
        ServiceAttribute(name="rate", value="10 Gbit/s", group_name="characteristics"),
        ServiceAttribute(
            name="serviceLevel", value="highAvailability", group_name="characteristics",
            constrained=True,
        ),
        ServiceAttribute(name="rack", value="B07", group_name="deliveryPointA"),
        ServiceAttribute(name="rackCount", value="0.5 U", group_name="characteristics"),
    ]  # fmt: skip
    handover = ServiceDocument(
        kind=DocumentKind.HANDOVER,
        name="handover PB-ETH-1001.pdf",
        file_path="documents/handover.pdf",
    )
    loa = ServiceDocument(kind=DocumentKind.LOA, name="LOA.pdf", file_path="documents/loa.pdf")
    escaping = ServiceDocument(kind=DocumentKind.LOA, name="x.txt", file_path="../secret.txt")
    active.documents = [handover, loa, escaping]
    foreign = ServiceDocument(
        kind=DocumentKind.HANDOVER, name="globex.pdf", file_path="documents/handover.pdf"
    )
    services["PB-ETH-3001"].documents = [foreign]
    building = services["PB-WAV-1002"]
    building.milestones = [
        ServiceMilestone(name=name, position=position, completed=position < 2,
                         date=date(2026, 10, 1 + position) if position < 3 else None)
        for position, name in enumerate(MilestoneName)
    ]  # fmt: skip
    session.flush()
    catalogue.documents.update(
        handover=handover.id, loa=loa.id, escaping=escaping.id, foreign=foreign.id
    )


def _terminations(session: Session, services: dict[str, Service], catalogue: Catalogue) -> None:
    for key, references in (
        ("acme", ("PB-DFB-1003", "PB-COL-1004")),
        ("globex", ("PB-DFB-3002",)),
        # An active service's termination order: its documents are not shown yet.
        ("active", ("PB-ETH-1001",)),
    ):
        document = TerminationDocument(
            filename=f"termination-{key}.pdf", file_path="documents/termination.pdf"
        )
        session.add(
            Termination(
                services=[services[reference] for reference in references], documents=[document]
            )
        )
        session.flush()
        catalogue.documents[f"termination-{key}"] = document.id


def _maintenance(reference: str, day: int, services: list[Service]) -> Maintenance:
    return Maintenance(
        reference=reference,
        name=f"Works {reference}",
        type=MaintenanceType.PREVENTIVE,
        classification=MaintenanceClassification.OUTAGE,
        status=MaintenanceStatus.SCHEDULED,
        date_start=datetime(2026, 12, day, 22, tzinfo=UTC),
        date_end=datetime(2026, 12, day + 1, 2, tzinfo=UTC),
        date_notification=datetime(2026, 11, day, 9, tzinfo=UTC),
        services=services,
        contacts=[MaintenanceContact(email="noc@patchbay.test")],
    )


def _maintenances(session: Session, services: dict[str, Service], catalogue: Catalogue) -> None:
    shared = _maintenance("MNT-1", 3, [services["PB-ETH-1001"], services["PB-ETH-3001"]])
    globex = _maintenance("MNT-2", 1, [services["PB-ETH-3001"]])
    acme = _maintenance("MNT-3", 5, [services["PB-WAV-1002"], services["PB-IPT-2001"]])
    none = _maintenance("MNT-4", 7, [])
    session.add_all([shared, globex, acme, none])
    session.flush()
    for maintenance in (shared, globex, acme, none):
        catalogue.maintenances[maintenance.reference] = maintenance.id


def _invoices(
    session: Session, world: World, services: dict[str, Service], catalogue: Catalogue
) -> None:
    rows = [
        ("INV-A1", "acme", InvoiceType.INVOICE, date(2026, 9, 1), False, "PB-ETH-1001", "120.00"),
        ("INV-A2", "acme", InvoiceType.CREDIT, date(2026, 10, 1), True, "PB-WAV-1002", "-30.00"),
        ("INV-A3", "acme", InvoiceType.INVOICE, date(2026, 8, 1), True, "PB-ETH-1001", "500.00"),
        ("INV-B1", "benelux", InvoiceType.INVOICE, date(2026, 7, 1), False, "PB-IPT-2001", "80.00"),
        ("INV-G1", "globex", InvoiceType.INVOICE, date(2026, 9, 15), False, "PB-ETH-3001", "99.00"),
    ]
    for reference, company, kind, invoiced, paid, service, amount in rows:
        invoice = Invoice(
            reference=reference,
            company_id=world.companies[company],
            type=kind,
            date_created=invoiced,
            date_invoice=invoiced,
            date_due=date(invoiced.year, invoiced.month, 28),
            amount=Decimal(amount),
            amount_with_tax=Decimal(amount) * Decimal("1.2"),
            is_paid=paid,
            status=InvoiceStatus.PAID if paid else InvoiceStatus.UNPAID,
            pdf_path="documents/invoice.pdf",
            pdf_name=f"{reference}.pdf",
            lines=[
                InvoiceLine(
                    service_id=services[service].id, label="Monthly", amount=Decimal(amount)
                )
            ],
        )
        session.add(invoice)
        session.flush()
        catalogue.invoices[reference] = invoice.id


@pytest.fixture(scope="module")
def catalogue(world: World, data_dir: Path) -> Catalogue:
    return build_catalogue(world, data_dir)
