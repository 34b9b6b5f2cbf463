"""Service types and services: endpoints, milestones, attributes, documents, terminations."""

import random
from datetime import date, timedelta

from portal.provider.demo_data.build_attributes import service_attributes
from portal.provider.demo_data.catalogue import SERVICE_TYPES, Family, ServiceTypeEntry
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import (
    ACME,
    ACME_BENELUX,
    BOREAL,
    FRENCH_SPEAKING,
    GLOBEX,
    INITECH,
    NORDIC,
    PEOPLE,
    RHONE,
)
from portal.provider.demo_data.places import ALL_SITES, FRENCH_SITES, UK_SITES, Site
from portal.provider.platform.models import (
    DocumentKind,
    Endpoint,
    MilestoneName,
    Service,
    ServiceAttribute,
    ServiceDocument,
    ServiceMilestone,
    ServiceStatus,
    ServiceType,
)

SERVICES_PER_COMPANY = {
    ACME: 30,
    ACME_BENELUX: 8,
    GLOBEX: 16,
    BOREAL: 12,
    INITECH: 12,
    NORDIC: 10,
    RHONE: 10,
}
CLIENT_REFERENCE_PREFIXES = {
    ACME: "ACME",
    ACME_BENELUX: "ACBX",
    GLOBEX: "GLX",
    BOREAL: "BRL",
    INITECH: "INI",
    NORDIC: "NFL",
    RHONE: "RDC",
}
REFERENCE_CODES = {
    Family.TRANSIT: "IPT",
    Family.ACCESS: "ACC",
    Family.ETHERNET: "ETH",
    Family.WAVELENGTH: "WAV",
    Family.OTN: "OTN",
    Family.DARK_FIBRE: "DFB",
    Family.COLOCATION: "COL",
    Family.CROSS_CONNECT: "XCO",
    Family.ON_SITE: "RHS",
    Family.HOSTING: "HST",
    Family.EQUIPMENT: "EQP",
    Family.NETWORK_SERVICE: "NET",
    Family.STORAGE_NETWORK: "SAN",
    Family.VOICE: "SIP",
}
_STATUS_WEIGHTS = {
    ServiceStatus.ACTIVE: 60,
    ServiceStatus.UNDER_CONSTRUCTION: 15,
    ServiceStatus.UNDER_TERMINATION: 10,
    ServiceStatus.TERMINATED: 15,
}
_BETWEEN_SITES = {
    Family.ETHERNET,
    Family.WAVELENGTH,
    Family.OTN,
    Family.DARK_FIBRE,
    Family.STORAGE_NETWORK,
}
_AT_CUSTOMER_OFFICE = {Family.ACCESS, Family.NETWORK_SERVICE, Family.VOICE}
_IN_DATA_CENTRE = {Family.TRANSIT, Family.COLOCATION, Family.ON_SITE, Family.HOSTING}


def build_services(context: SeedContext) -> None:
    types = {
        entry.key: ServiceType(
            id=context.new_id(),
            key=entry.key,
            label_en=entry.label_en,
            label_fr=entry.label_fr,
            position=position,
        )
        for position, entry in enumerate(SERVICE_TYPES, start=1)
    }
    context.session.add_all(types.values())
    reference_number = 24017
    for company, entry, status in _plan(context.rng):
        reference_number += context.rng.randint(3, 40)
        reference = f"PB-{REFERENCE_CODES[entry.family]}-{reference_number}"
        service = _service(context, company, types[entry.key], entry, status, reference)
        context.services.append(service)
    context.session.add_all(context.services)
    context.session.flush()


def _plan(rng: random.Random) -> list[tuple[str, ServiceTypeEntry, ServiceStatus]]:
    """Which company gets which type in which status: every type and, for every company, every
    status at least once."""
    slots = [company for company, count in SERVICES_PER_COMPANY.items() for _ in range(count)]
    entries = list(SERVICE_TYPES)
    entries += [rng.choice(SERVICE_TYPES) for _ in range(len(slots) - len(entries))]
    rng.shuffle(entries)
    statuses: list[ServiceStatus] = []
    for count in SERVICES_PER_COMPANY.values():
        weights = list(_STATUS_WEIGHTS.values())
        company_statuses = list(ServiceStatus)
        company_statuses += rng.choices(list(_STATUS_WEIGHTS), weights, k=count - 4)
        rng.shuffle(company_statuses)
        statuses += company_statuses
    return list(zip(slots, entries, statuses, strict=True))


def _pick_site(rng: random.Random, company: str, data_centre: bool | None) -> Site:
    if company == ACME_BENELUX:
        home = ALL_SITES
    else:
        home = FRENCH_SITES if company in FRENCH_SPEAKING else UK_SITES
    pool = home if rng.random() < 0.85 else ALL_SITES
    return rng.choice([site for site in pool if data_centre in (None, site.is_data_centre)])


def _ends(rng: random.Random, company: str, family: Family) -> tuple[Site, Site | None]:
    if family is Family.CROSS_CONNECT:
        site = _pick_site(rng, company, data_centre=True)
        return site, site
    if family in _AT_CUSTOMER_OFFICE:
        office = _pick_site(rng, company, data_centre=False)
        return office, _pick_site(rng, company, data_centre=True)
    if family in _IN_DATA_CENTRE:
        return _pick_site(rng, company, data_centre=True), None
    if family in _BETWEEN_SITES:
        site_a = _pick_site(rng, company, data_centre=None)
        site_b = site_a
        while site_b == site_a:
            site_b = _pick_site(rng, company, data_centre=True)
        return site_a, site_b
    return _pick_site(rng, company, data_centre=None), None


def _endpoint(context: SeedContext, site: Site) -> Endpoint:
    return Endpoint(
        id=context.new_id(),
        name=site.name,
        number=site.number,
        street=site.street,
        postal_code=site.postal_code,
        city=site.city,
        country=site.country,
    )


def _dates(
    rng: random.Random, today: date, status: ServiceStatus
) -> tuple[date | None, date | None]:
    """Ready-for-service and termination dates."""
    match status:
        case ServiceStatus.ACTIVE:
            return today - timedelta(days=rng.randint(45, 1500)), None
        case ServiceStatus.UNDER_TERMINATION:
            started = today - timedelta(days=rng.randint(400, 1800))
            return started, today + timedelta(days=rng.randint(15, 90))
        case ServiceStatus.TERMINATED:
            ended = today - timedelta(days=rng.randint(10, 400))
            return ended - timedelta(days=rng.randint(365, 1500)), ended
    return None, None


def _milestones(context: SeedContext, service: Service) -> list[ServiceMilestone]:
    """The first milestones completed with their dates, the next one planned, the rest open."""
    rng = context.rng
    completed = rng.randint(1, len(MilestoneName) - 1)
    day = context.today - timedelta(days=rng.randint(40, 120))
    milestones = []
    for position, name in enumerate(MilestoneName):
        milestone = ServiceMilestone(
            id=context.new_id(), service_id=service.id, name=name, position=position
        )
        if position < completed:
            milestone.completed, milestone.date = True, day
            day = min(day + timedelta(days=rng.randint(5, 25)), context.today)
        elif position == completed:
            milestone.date = context.today + timedelta(days=rng.randint(7, 45))
        milestones.append(milestone)
    return milestones


def _client_references(rng: random.Random, company: str, site: Site) -> list[str]:
    chance = 0.6 if company == ACME else 0.4
    if rng.random() > chance:
        return []
    prefix = CLIENT_REFERENCE_PREFIXES[company]
    references = [f"{prefix}-{site.city[:3].upper()}-{rng.randint(1, 120):03d}"]
    if rng.random() < 0.4:
        references.append(f"PO-{rng.randint(2022, 2026)}-{rng.randint(1, 9999):04d}")
    if rng.random() < 0.2:
        references.append(f"WO{rng.randint(100000, 999999)}")
    return references


def _documents(context: SeedContext, service: Service, family: Family) -> list[ServiceDocument]:
    documents = []
    if service.status is not ServiceStatus.UNDER_CONSTRUCTION:
        documents.append(
            _document(context, service, DocumentKind.HANDOVER, f"handover-{service.reference}.pdf")
        )
        if context.rng.random() < 0.3:
            documents.append(
                _document(
                    context, service, DocumentKind.HANDOVER, f"test-report-{service.reference}.pdf"
                )
            )
    if family in {Family.CROSS_CONNECT, Family.DARK_FIBRE, Family.COLOCATION} or (
        family in _BETWEEN_SITES and context.rng.random() < 0.5
    ):
        documents.append(
            _document(context, service, DocumentKind.LOA, f"LOA-{service.reference}.pdf")
        )
    return documents


def _document(
    context: SeedContext, service: Service, kind: DocumentKind, name: str
) -> ServiceDocument:
    source = context.documents["handover" if kind is DocumentKind.HANDOVER else "loa"]
    return ServiceDocument(
        id=context.new_id(), service_id=service.id, kind=kind, name=name, file_path=source.path
    )


def _delivery_manager_email(rng: random.Random, company: str) -> str | None:
    if rng.random() < 0.25:
        return None
    serving = [person.email for person in PEOPLE if company in person.serves]
    return rng.choice([*serving, "marc-antoine.petit@patchbay.test"])


def _service(
    context: SeedContext,
    company: str,
    service_type: ServiceType,
    entry: ServiceTypeEntry,
    status: ServiceStatus,
    reference: str,
) -> Service:
    rng = context.rng
    site_a, site_b = _ends(rng, company, entry.family)
    endpoint_a = _endpoint(context, site_a)
    endpoint_b = _endpoint(context, site_b) if site_b else None
    date_start, date_termination = _dates(rng, context.today, status)
    order_year = (date_start or context.today).year
    order_reference = f"BC-{order_year}-{rng.randint(1, 99999):05d}"
    manager_email = _delivery_manager_email(rng, company)
    service = Service(
        id=context.new_id(),
        reference=reference,
        company_id=context.companies[company].id,
        type_id=service_type.id,
        status=status,
        date_start=date_start,
        date_termination=date_termination,
        client_references=_client_references(rng, company, site_a),
        delivery_manager_id=context.users[manager_email].id if manager_email else None,
        order_reference=order_reference,
        order_pdf_path=context.documents["order"].path,
        order_pdf_name=f"{order_reference}.pdf",
        endpoint_a_id=endpoint_a.id,
        endpoint_b_id=endpoint_b.id if endpoint_b else None,
    )
    # The relationships as well as the keys: the search column is computed from them at flush.
    service.type, service.endpoint_a, service.endpoint_b = service_type, endpoint_a, endpoint_b
    service.attributes = [
        ServiceAttribute(id=context.new_id(), service_id=service.id, **attribute._asdict())
        for attribute in service_attributes(rng, entry, site_a, site_b)
    ]
    service.documents = _documents(context, service, entry.family)
    if status is ServiceStatus.UNDER_CONSTRUCTION:
        service.milestones = _milestones(context, service)
    return service
