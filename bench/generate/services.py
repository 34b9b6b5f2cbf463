"""Service types (the demo catalogue), services with their endpoints, attributes, milestones and
documents. ``search_text`` comes from the provider's own ``service_search_text``."""

import random
import uuid
from datetime import date, timedelta

from sqlmodel import Session

from bench.generate.progress import Progress
from bench.generate.world import CustomerCompany, World
from portal.provider.demo_data.build_attributes import service_attributes
from portal.provider.demo_data.build_services import REFERENCE_CODES
from portal.provider.demo_data.catalogue import SERVICE_TYPES, Family, ServiceTypeEntry
from portal.provider.demo_data.places import ALL_SITES, FRENCH_SITES, UK_SITES, Site
from portal.provider.platform.models import (
    DocumentKind,
    Endpoint,
    MilestoneName,
    Service,
    ServiceStatus,
    ServiceType,
)
from portal.provider.platform.models.search import service_search_text

SERVICE_COLUMNS = (
    "id", "reference", "company_id", "type_id", "status", "date_start", "date_termination",
    "client_references", "search_text", "delivery_manager_id", "order_reference",
    "order_pdf_path", "order_pdf_name", "endpoint_a_id", "endpoint_b_id", "created_at",
)  # fmt: skip
ENDPOINT_COLUMNS = (
    "id", "reference", "name", "number", "street", "postal_code", "city", "country",
)  # fmt: skip
STATUS_WEIGHTS = {
    ServiceStatus.ACTIVE: 65,
    ServiceStatus.UNDER_CONSTRUCTION: 10,
    ServiceStatus.UNDER_TERMINATION: 5,
    ServiceStatus.TERMINATED: 20,
}
BETWEEN_SITES = {
    Family.ETHERNET,
    Family.WAVELENGTH,
    Family.OTN,
    Family.DARK_FIBRE,
    Family.STORAGE_NETWORK,
}
IN_DATA_CENTRE = {Family.TRANSIT, Family.COLOCATION, Family.ON_SITE, Family.HOSTING}
WITH_LOA = {Family.CROSS_CONNECT, Family.DARK_FIBRE, Family.COLOCATION}
_DATA_CENTRES = tuple(site for site in ALL_SITES if site.is_data_centre)


def build_service_types(world: World) -> dict[str, ServiceType]:
    spool = world.spool("service_types", ("id", "key", "label_en", "label_fr", "position"))
    types = {}
    for position, entry in enumerate(SERVICE_TYPES, start=1):
        service_type = ServiceType(
            id=world.new_id(),
            key=entry.key,
            label_en=entry.label_en,
            label_fr=entry.label_fr,
            position=position,
        )
        spool.add(service_type.id, entry.key, entry.label_en, entry.label_fr, position)
        types[entry.key] = service_type
    return types


def build_services(world: World) -> None:
    types = build_service_types(world)
    world.spool("endpoints", ENDPOINT_COLUMNS)
    world.spool("services", SERVICE_COLUMNS)
    world.spool(
        "service_attributes", ("id", "service_id", "name", "value", "group_name", "constrained")
    )
    world.spool("service_milestones", ("id", "service_id", "name", "date", "completed", "position"))
    world.spool(
        "service_documents", ("id", "service_id", "kind", "name", "file_path", "content_type")
    )
    search_text = SearchText()
    progress = Progress("services", world.plan.services)
    number = 0
    for customer, count in zip(world.customers, world.split("services"), strict=True):
        for _ in range(count):
            number += 1
            entry = world.rng.choice(SERVICE_TYPES)
            _service(world, search_text, customer, types[entry.key], entry, number)
        progress.advance(count)
    progress.finish()


def _sites(
    rng: random.Random, customer: CustomerCompany, family: Family
) -> tuple[Site, Site | None]:
    home = FRENCH_SITES if customer.french else UK_SITES
    if family is Family.CROSS_CONNECT:
        site = rng.choice(_DATA_CENTRES)
        return site, site
    if family in IN_DATA_CENTRE:
        return rng.choice(_DATA_CENTRES), None
    site_a = rng.choice(home)
    if family in BETWEEN_SITES:
        site_b = rng.choice(_DATA_CENTRES)
        return site_a, site_b if site_b != site_a else None
    return site_a, None


def _endpoint(world: World, site: Site) -> uuid.UUID:
    endpoint_id = world.new_id()
    world.add(
        "endpoints",
        endpoint_id,
        None,
        site.name,
        site.number,
        site.street,
        site.postal_code,
        site.city,
        site.country,
    )
    return endpoint_id


class SearchText:
    """``service_search_text`` of the provider on one scratch service whose fields are set for
    each generated one: building a mapped object per row would cost more than the rest."""

    def __init__(self) -> None:
        # A session that never connects: every related row is assigned, none is loaded.
        self.session = Session()
        blank = uuid.UUID(int=0)
        self.service = Service(
            reference="", company_id=blank, type_id=blank, status=ServiceStatus.ACTIVE
        )
        self.endpoints = {
            site: Endpoint(
                name=site.name, street=site.street, postal_code=site.postal_code, city=site.city
            )
            for site in ALL_SITES
        }

    def __call__(
        self,
        reference: str,
        client_references: list[str],
        service_type: ServiceType,
        site_a: Site,
        site_b: Site | None,
    ) -> str:
        service = self.service
        service.reference, service.client_references = reference, client_references
        service.type = service_type
        service.endpoint_a = self.endpoints[site_a]
        service.endpoint_b = self.endpoints[site_b] if site_b else None
        return service_search_text(self.session, service)


def _dates(
    rng: random.Random, today: date, status: ServiceStatus
) -> tuple[date | None, date | None]:
    match status:
        case ServiceStatus.ACTIVE:
            return today - timedelta(days=rng.randint(45, 2500)), None
        case ServiceStatus.UNDER_TERMINATION:
            return today - timedelta(days=rng.randint(400, 2500)), today + timedelta(
                days=rng.randint(15, 90)
            )
        case ServiceStatus.TERMINATED:
            ended = today - timedelta(days=rng.randint(10, 1000))
            return ended - timedelta(days=rng.randint(365, 1500)), ended
    return None, None


def _client_references(rng: random.Random, customer: CustomerCompany, site: Site) -> list[str]:
    if rng.random() > 0.5:
        return []
    prefix = "".join(word[0] for word in customer.domain.split("-")).upper()
    references = [f"{prefix}-{site.city[:3].upper()}-{rng.randint(1, 999):03d}"]
    if rng.random() < 0.3:
        references.append(f"PO-{rng.randint(2020, 2026)}-{rng.randint(1, 9999):04d}")
    return references


def _service(
    world: World,
    search_text: SearchText,
    customer: CustomerCompany,
    service_type: ServiceType,
    entry: ServiceTypeEntry,
    number: int,
) -> None:
    rng = world.rng
    today = world.plan.anchor
    status = rng.choices(list(STATUS_WEIGHTS), list(STATUS_WEIGHTS.values()))[0]
    site_a, site_b = _sites(rng, customer, entry.family)
    endpoint_a = _endpoint(world, site_a)
    endpoint_b = _endpoint(world, site_b) if site_b else None
    date_start, date_termination = _dates(rng, today, status)
    order_reference = f"BC-{(date_start or today).year}-{number:07d}"
    reference = f"PB-{REFERENCE_CODES[entry.family]}-{number:07d}"
    client_references = _client_references(rng, customer, site_a)
    manager = rng.choice(world.sales_emails) if rng.random() < 0.75 else None
    service_id = world.new_id()
    world.add(
        "services",
        service_id,
        reference,
        customer.id,
        service_type.id,
        status.value,
        date_start,
        date_termination,
        client_references,
        search_text(reference, client_references, service_type, site_a, site_b),
        world.staff_ids[manager] if manager else None,
        order_reference,
        world.documents["order"].path,
        f"{order_reference}.pdf",
        endpoint_a,
        endpoint_b,
        world.plan.anchor_time,
    )
    customer.service_ids.append(service_id)
    customer.service_references.append(reference)
    for attribute in service_attributes(rng, entry, site_a, site_b):
        world.add("service_attributes", world.new_id(), service_id, *attribute)
    if status is ServiceStatus.UNDER_CONSTRUCTION:
        _milestones(world, service_id)
    else:
        _document(world, service_id, DocumentKind.HANDOVER, f"handover-{reference}.pdf")
    if entry.family in WITH_LOA:
        _document(world, service_id, DocumentKind.LOA, f"LOA-{reference}.pdf")


def _milestones(world: World, service_id: uuid.UUID) -> None:
    """The first milestones done with their dates, the next one planned, the rest open."""
    rng = world.rng
    today = world.plan.anchor
    completed = rng.randint(1, len(MilestoneName) - 1)
    day = today - timedelta(days=rng.randint(40, 120))
    for position, name in enumerate(MilestoneName):
        done = position < completed
        when: date | None = day if done else today + timedelta(days=rng.randint(7, 45))
        if position > completed:
            when = None
        world.add(
            "service_milestones", world.new_id(), service_id, name.value, when, done, position
        )
        if done:
            day = min(day + timedelta(days=rng.randint(5, 25)), today)


def _document(world: World, service_id: uuid.UUID, kind: DocumentKind, name: str) -> None:
    source = world.documents["handover" if kind is DocumentKind.HANDOVER else "loa"]
    world.add(
        "service_documents",
        world.new_id(),
        service_id,
        kind.value,
        name,
        source.path,
        "application/pdf",
    )
