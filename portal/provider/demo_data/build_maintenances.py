"""Maintenance windows over the past and next three months: one for every status ×
classification × type, some shared by two companies, some spanning several days, and a busy
night of Acme's in the current month (a calendar day with more than fits in its cell); the
extra addresses Acme and Globex send their maintenance notices to.

The busy night draws from a random source of its own, so that the rows seeded after the
maintenances (monitoring) stay as they were."""

import itertools
import uuid
from datetime import UTC, datetime, time, timedelta

from portal.provider.demo_data.context import SeedContext, seeded_random
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
from portal.provider.platform.models import (
    Maintenance,
    MaintenanceClassification,
    MaintenanceContact,
    MaintenanceStatus,
    MaintenanceType,
    NoticeAddress,
    ServiceStatus,
)

# Whose services each maintenance mainly touches, in turn; Acme often, so its users see many.
COMPANY_TURNS = (ACME, GLOBEX, ACME, BOREAL, ACME, INITECH, ACME_BENELUX, NORDIC, ACME, RHONE)
NOC_EMAIL = "noc@patchbay.test"
CHANGE_EMAIL = "change-management@patchbay.test"


# One in seven spans several days (a fibre diversion, a room's power works).
LONG_EVERY = 7
BUSY_NIGHT_DAY = 15
BUSY_NIGHT_SEED = 1414
# (classification, type, cancelled, hours): the first lasts one hour, the others several.
BUSY_NIGHT = (
    (MaintenanceClassification.OUTAGE, MaintenanceType.PREVENTIVE, False, 1),
    (MaintenanceClassification.DEGRADED, MaintenanceType.PREVENTIVE, False, 3),
    (MaintenanceClassification.NO_IMPACT, MaintenanceType.INFORMATION, False, 2),
    (MaintenanceClassification.OUTAGE, MaintenanceType.CORRECTIVE, True, 4),
    (MaintenanceClassification.DEGRADED, MaintenanceType.PREVENTIVE, False, 5),
)


def build_maintenances(context: SeedContext) -> None:
    combinations = itertools.product(MaintenanceStatus, MaintenanceClassification, MaintenanceType)
    maintenances = [
        _maintenance(context, index, status, classification, kind)
        for index, (status, classification, kind) in enumerate(combinations)
    ]
    maintenances += _busy_night(context)
    context.session.add_all(maintenances)
    context.session.flush()


# Issue 50: the extra addresses a company's maintenance notices go to, one confirmed and one
# waiting for its confirmation, so the notifications screen shows both.
NOTICE_ADDRESSES = (
    (ACME, "noc@acme-networks.test", "fr", "Europe/Paris", True),
    (ACME, "change-board@acme-networks.test", "en", "Europe/London", False),
    (GLOBEX, "noc@globex.test", "en", "Europe/London", True),
)


def build_notice_addresses(context: SeedContext) -> None:
    context.session.add_all(
        NoticeAddress(
            id=context.new_id(),
            company_id=context.companies[company].id,
            email=email,
            language=language,
            time_zone=zone,
            created_at=context.now - timedelta(days=40),
            confirmed_at=context.now - timedelta(days=39) if confirmed else None,
        )
        for company, email, language, zone, confirmed in NOTICE_ADDRESSES
    )
    context.session.flush()


def _busy_night(context: SeedContext) -> list[Maintenance]:
    """Five works on Acme's services on the 15th of the current month, one of them cancelled
    and one also touching Globex."""
    rng = seeded_random(BUSY_NIGHT_SEED)
    ids = seeded_random(BUSY_NIGHT_SEED + 1)
    start = datetime.combine(context.today.replace(day=BUSY_NIGHT_DAY), time(22), tzinfo=UTC)
    live = [s for s in context.services_of(ACME) if s.status is not ServiceStatus.TERMINATED]
    maintenances = []
    for number, (classification, kind, cancelled, hours) in enumerate(BUSY_NIGHT):
        begins = start + timedelta(minutes=30 * number)
        if cancelled:
            status = MaintenanceStatus.CANCELLED
        else:
            status = (
                MaintenanceStatus.SCHEDULED if begins > context.now else MaintenanceStatus.COMPLETED
            )
        services = rng.sample(live, k=min(len(live), rng.randint(1, 3)))
        if number == 1:
            services.append(rng.choice(context.services_of(GLOBEX)))
        work = WORKS[(number * 5) % len(WORKS)]
        maintenance = Maintenance(
            id=uuid.UUID(int=ids.getrandbits(128), version=4),
            reference=f"MNT-{begins:%Y}-{101 + number:04d}",
            name=work.name_fr,
            type=kind,
            classification=classification,
            status=status,
            date_start=begins,
            date_end=begins + timedelta(hours=hours),
            date_notification=begins - timedelta(days=14),
            services=services,
        )
        maintenance.contacts = [
            MaintenanceContact(
                id=uuid.UUID(int=ids.getrandbits(128), version=4),
                maintenance_id=maintenance.id,
                email=NOC_EMAIL,
            )
        ]
        maintenances.append(maintenance)
    return maintenances


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
    # Within three months either way (the draws as they always were, folded into 2–89 days).
    days = -(2 + (rng.randint(2, 150) - 2) % 88) if past else rng.randint(1, 75)
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
    if index % LONG_EVERY == 3:
        end += timedelta(days=1 + index % 3)
    notice = timedelta(hours=rng.randint(1, 6)) if kind is MaintenanceType.EMERGENCY else None
    work = WORKS[index % len(WORKS)]
    live = [s for s in context.services_of(company) if s.status is not ServiceStatus.TERMINATED]
    services = rng.sample(live, k=min(len(live), rng.randint(1, 4)))
    if rng.random() < 0.25:
        neighbour = rng.choice([turn for turn in COMPANY_TURNS if turn != company])
        services.append(rng.choice(context.services_of(neighbour)))
    contacts: list[tuple[str, str | None]] = [(NOC_EMAIL, None)]
    if rng.random() < 0.5:
        contacts.append((CHANGE_EMAIL, None))
    if rng.random() < 0.5:
        # The customer's own contact: shown to that company's users only.
        contacts.append((next(p.email for p in CUSTOMERS if p.company == company), company))
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
        MaintenanceContact(
            id=context.new_id(),
            maintenance_id=maintenance.id,
            email=email,
            company_id=context.companies[owner].id if owner else None,
        )
        for email, owner in contacts
    ]
    return maintenance
