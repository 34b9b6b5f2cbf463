"""A user's private iCalendar feed (RFC 5545) of the maintenances impacting their services.

It reads as its user, the principal of its link (``portal.provider.platform.feed_links``): the
same scope as the maintenances list, the same impacted services and contacts as the dialog, in
the language the link was made in (docs/decisions/maintenance-calendar-feed.md).
"""

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Row
from sqlmodel import Session, col, select

from portal.i18n import gettext
from portal.provider.maintenances import ical
from portal.provider.maintenances.queries import visible_contacts, visible_maintenances
from portal.provider.platform import maintnote
from portal.provider.platform.embeds import type_label
from portal.provider.platform.maintenance_labels import (
    CLASSIFICATION_LABELS,
    STATUS_LABELS,
    TYPE_LABELS,
)
from portal.provider.platform.models import (
    Company,
    Maintenance,
    MaintenanceContact,
    MaintenanceService,
    MaintenanceStatus,
    Service,
    ServiceType,
    utcnow,
)
from portal.provider.platform.scoping import service_condition
from portal.provider.platform.security import Principal
from portal.settings import get_settings

# What a feed holds: every upcoming maintenance and those of the last three months, at most this
# many (a calendar program reads the whole feed at every refresh).
HISTORY = timedelta(days=92)
MAX_EVENTS = 2_000
PRODID = "-//Patchbay//Maintenances//EN"
REFRESH = "PT1H"  # RFC 5545 duration


# What an event shows of a maintenance: read as plain rows, not entities, which cost a heavy
# customer's feed more than writing it (docs/decisions/calendar-feed-speed.md).
_WINDOW = (
    col(Maintenance.id),
    col(Maintenance.reference),
    col(Maintenance.name),
    col(Maintenance.type),
    col(Maintenance.classification),
    col(Maintenance.status),
    col(Maintenance.date_start),
    col(Maintenance.date_end),
    col(Maintenance.updated_at),
    col(Maintenance.sequence),
)


def _windows(db: Session, principal: Principal, since: datetime) -> Sequence[Row[Any]]:
    """The maintenances of the feed, earliest first: those ending after ``since``."""
    statement = (
        visible_maintenances(principal)
        .where(col(Maintenance.date_end) >= since)
        .order_by(col(Maintenance.date_start), col(Maintenance.reference))
        .limit(MAX_EVENTS)
        .with_only_columns(*_WINDOW)
    )
    return db.execute(statement).all()


@dataclass
class _Impacted:
    """A maintenance's services that the reader sees: as the description lists them, as
    maintnote objects, and the accounts (companies) they belong to."""

    described: list[str] = field(default_factory=list)
    objects: list[tuple[str, list[str]]] = field(default_factory=list)
    accounts: dict[str, None] = field(default_factory=dict)


def _impacted_services(
    db: Session, principal: Principal, maintenance_ids: list[uuid.UUID], language: str
) -> dict[uuid.UUID, _Impacted]:
    """Each maintenance's services that the principal may see, in one query."""
    found: dict[uuid.UUID, _Impacted] = defaultdict(_Impacted)
    if not maintenance_ids:
        return found
    pairs = (
        sa.select(
            col(MaintenanceService.maintenance_id),
            col(Service.reference),
            ServiceType,
            col(Service.client_references),
            col(Company.id),
            col(Company.reference),
        )
        .join(Service, col(Service.id) == col(MaintenanceService.service_id))
        .join(ServiceType, col(ServiceType.id) == col(Service.type_id))
        .join(Company, col(Company.id) == col(MaintenanceService.company_id))
        .where(col(MaintenanceService.maintenance_id).in_(maintenance_ids))
    )
    statement = pairs.where(service_condition(principal, Service.company_id, Service.id))
    rows = db.execute(statement.order_by(col(Service.reference)))
    for maintenance_id, reference, kind, client, company_id, company_reference in rows:
        impacted = found[maintenance_id]
        impacted.described.append(f"{reference} ({type_label(kind, language)})")
        impacted.objects.append((reference, list(client or [])))
        impacted.accounts[maintnote.account(company_reference, company_id)] = None
    return found


def _contacts(
    db: Session, principal: Principal, maintenance_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[str]]:
    """The e-mails of each maintenance's contacts that the principal may see, in one query."""
    found: dict[uuid.UUID, list[str]] = defaultdict(list)
    if not maintenance_ids:
        return found
    contact = MaintenanceContact
    statement = select(contact.maintenance_id, contact.email, contact.company_id).where(
        col(contact.maintenance_id).in_(maintenance_ids)
    )
    for row in visible_contacts(db.execute(statement).all(), principal):
        found[row.maintenance_id].append(row.email)
    return found


def _description(
    maintenance: Row[Any],
    classification: str,
    services: list[str],
    contacts: list[str],
    language: str,
) -> str:
    # Each label in a ``gettext`` call outside any f-string, where the catalogs' extraction
    # finds it.
    reference, kind = gettext(language, "Reference"), gettext(language, "Type")
    classified, status = gettext(language, "Classification"), gettext(language, "Status")
    impacted, reached = gettext(language, "Impacted services"), gettext(language, "Contacts")
    lines = [
        maintenance.name,
        "",
        f"{reference}: {maintenance.reference}",
        f"{kind}: {gettext(language, TYPE_LABELS[maintenance.type])}",
        f"{classified}: {classification}",
        f"{status}: {gettext(language, STATUS_LABELS[maintenance.status])}",
        "",
        f"{impacted}:",
        *(f"- {service}" for service in services),
    ]
    if contacts:
        lines += ["", f"{reached}: {', '.join(contacts)}"]
    return "\n".join(lines)


def _maintnote(maintenance: Row[Any], impacted: _Impacted, domain: str) -> list[bytes]:
    """The maintnote properties (portal/provider/platform/maintnote.py), as the notices carry
    them; one account per company of the reader's whose services the maintenance touches."""
    lines = [ical.line("X-MAINTNOTE-PROVIDER", ical.text(domain))]
    lines += [ical.line("X-MAINTNOTE-ACCOUNT", ical.text(name)) for name in impacted.accounts]
    lines.append(ical.line("X-MAINTNOTE-MAINTENANCE-ID", ical.text(maintenance.reference)))
    for reference, client_references in impacted.objects:
        name = "X-MAINTNOTE-OBJECT-ID"
        if client_references:
            values = ",".join(ical.param(value) for value in client_references)
            name += f";{maintnote.CLIENT_REFERENCE}={values}"
        lines.append(ical.line(name, ical.text(reference)))
    lines.append(ical.line("X-MAINTNOTE-IMPACT", maintnote.IMPACTS[maintenance.classification]))
    lines.append(ical.line("X-MAINTNOTE-STATUS", maintnote.STATUSES[maintenance.status]))
    return lines


def _event(
    maintenance: Row[Any], impacted: _Impacted, contacts: list[str], language: str, domain: str
) -> list[bytes]:
    classification = gettext(language, CLASSIFICATION_LABELS[maintenance.classification])
    summary = f"{maintenance.reference} · {classification} · {maintenance.name}"
    description = _description(maintenance, classification, impacted.described, contacts, language)
    changed = ical.utc(maintenance.updated_at)
    cancelled = maintenance.status is MaintenanceStatus.CANCELLED
    return [
        ical.line("SUMMARY", ical.text(summary)),
        ical.line("DTSTART", ical.utc(maintenance.date_start)),
        ical.line("DTEND", ical.utc(maintenance.date_end)),
        ical.line("DTSTAMP", changed),
        # Stable across refreshes and changes, unique beyond this provider.
        ical.line("UID", ical.text(maintnote.uid(maintenance.id))),
        ical.line("SEQUENCE", str(maintenance.sequence)),
        ical.line("CATEGORIES", ical.text(classification)),
        ical.line("DESCRIPTION", ical.text(description)),
        ical.line("LAST-MODIFIED", changed),
        ical.line("STATUS", "CANCELLED" if cancelled else "CONFIRMED"),
        # A maintenance informs; it does not make the reader busy.
        ical.line("TRANSP", "TRANSPARENT"),
        *_maintnote(maintenance, impacted, domain),
    ]


def build_feed(
    db: Session, principal: Principal, language: str, now: datetime | None = None
) -> bytes:
    """The iCalendar text of the maintenances the principal sees, from three months back."""
    maintenances = _windows(db, principal, (now or utcnow()) - HISTORY)
    ids = [maintenance.id for maintenance in maintenances]
    services = _impacted_services(db, principal, ids, language)
    contacts = _contacts(db, principal, ids)
    name = ical.text(
        gettext(language, "{company} maintenances", company=get_settings().company_name)
    )
    lines = [
        ical.line("VERSION", "2.0"),
        ical.line("PRODID", ical.text(PRODID)),
        ical.line("CALSCALE", "GREGORIAN"),
        ical.line("METHOD", "PUBLISH"),
        ical.line("NAME", name),
        ical.line("X-WR-CALNAME", name),
        # Calendar programs are asked to read the feed again after an hour.
        ical.line("REFRESH-INTERVAL;VALUE=DURATION", REFRESH),
        ical.line("X-PUBLISHED-TTL", REFRESH),
    ]
    domain = maintnote.provider_domain()
    for maintenance in maintenances:
        event = _event(
            maintenance, services[maintenance.id], contacts[maintenance.id], language, domain
        )
        lines += ical.component("VEVENT", event)
    return b"".join(ical.component("VCALENDAR", lines))
