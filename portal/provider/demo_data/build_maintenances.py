"""Maintenance windows: one for every status × classification × type, with impacted services."""

import itertools
from datetime import datetime, timedelta

from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.maintenances import WORKS
from portal.provider.demo_data.people import (
    ACME,
    ACME_BENELUX,
    BOREAL,
    CUSTOMERS,
    FRENCH_SPEAKING,
    GLOBEX,
    INITECH,
    NORDIC,
    RHONE,
)
from portal.provider.models import (
    Maintenance,
    MaintenanceClassification,
    MaintenanceContact,
    MaintenanceStatus,
    MaintenanceType,
    ServiceStatus,
)

# Whose services each maintenance mainly touches, in turn; Acme often, so its users see many.
COMPANY_TURNS = (ACME, GLOBEX, ACME, BOREAL, ACME, INITECH, ACME_BENELUX, NORDIC, ACME, RHONE)
NOC_EMAIL = "noc@patchbay.test"
CHANGE_EMAIL = "change-management@patchbay.test"


def build_maintenances(context: SeedContext) -> None:
    combinations = itertools.product(MaintenanceStatus, MaintenanceClassification, MaintenanceType)
    maintenances = [
        _maintenance(context, index, status, classification, kind)
        for index, (status, classification, kind) in enumerate(combinations)
    ]
    context.session.add_all(maintenances)
    context.session.flush()


def _window(
    context: SeedContext, status: MaintenanceStatus, kind: MaintenanceType
) -> tuple[datetime, datetime]:
    """Start and end: ongoing ones around now, the others in a night window before or after."""
    rng = context.rng
    if status is MaintenanceStatus.ONGOING:
        return (
            context.now - timedelta(minutes=rng.randint(2, 36) * 5),
            context.now + timedelta(minutes=rng.randint(6, 48) * 5),
        )
    past = status is MaintenanceStatus.COMPLETED or (
        status is MaintenanceStatus.CANCELLED and rng.random() < 0.5
    )
    days = -rng.randint(2, 150) if past else rng.randint(1, 75)
    start_hour = rng.randint(9, 16) if kind is MaintenanceType.EMERGENCY else rng.choice((22, 23))
    start = context.midnight + timedelta(days=days, hours=start_hour)
    return start, start + timedelta(hours=rng.randint(1, 6), minutes=rng.choice((0, 30)))


def _maintenance(
    context: SeedContext,
    index: int,
    status: MaintenanceStatus,
    classification: MaintenanceClassification,
    kind: MaintenanceType,
) -> Maintenance:
    rng = context.rng
    company = COMPANY_TURNS[index % len(COMPANY_TURNS)]
    start, end = _window(context, status, kind)
    notice = timedelta(hours=rng.randint(1, 6)) if kind is MaintenanceType.EMERGENCY else None
    work = WORKS[index % len(WORKS)]
    live = [s for s in context.services_of(company) if s.status is not ServiceStatus.TERMINATED]
    services = rng.sample(live, k=min(len(live), rng.randint(1, 4)))
    if rng.random() < 0.25:
        neighbour = rng.choice([turn for turn in COMPANY_TURNS if turn != company])
        services.append(rng.choice(context.services_of(neighbour)))
    contacts = [NOC_EMAIL] + ([CHANGE_EMAIL] if rng.random() < 0.5 else [])
    if rng.random() < 0.5:
        contacts.append(next(p.email for p in CUSTOMERS if p.company == company))
    maintenance = Maintenance(
        id=context.new_id(),
        reference=f"MNT-{start:%Y}-{index + 1:04d}",
        name=work.name_fr if company in FRENCH_SPEAKING else work.name_en,
        type=kind,
        classification=classification,
        status=status,
        date_start=start,
        date_end=end,
        date_notification=start - (notice or timedelta(days=rng.randint(7, 21))),
        services=services,
    )
    maintenance.contacts = [
        MaintenanceContact(id=context.new_id(), maintenance_id=maintenance.id, email=email)
        for email in contacts
    ]
    return maintenance
