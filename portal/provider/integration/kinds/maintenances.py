"""Maintenance windows, keyed on their reference, with the services they impact and the
contacts notified; both lists, when sent, replace the stored ones.

A contact belongs to the customer company given with it, else to the company of the user with
that e-mail, else to none: the provider's own, shown to customers only when its e-mail is of the
staff mail domain (docs/decisions/maintenance-contacts.md).
"""

import uuid
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import Field
from sqlmodel import Session

from portal.i18n import N_
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    Email,
    InputModel,
    Reference,
    Text,
    UtcDateTime,
    as_utc,
    duplicates,
    path,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform import webhooks
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.mail.notices import announce
from portal.provider.platform.models import (
    Company,
    Maintenance,
    MaintenanceClassification,
    MaintenanceContact,
    MaintenanceStatus,
    MaintenanceType,
    NoticeEvent,
    Service,
    User,
    utcnow,
)

END_BEFORE_START = N_("The end must not come before the start.")
# The webhook event of each notice's (issue 51): a start or an end is an update.
WEBHOOK_EVENTS = {
    NoticeEvent.SCHEDULED: "maintenance.scheduled",
    NoticeEvent.CHANGED: "maintenance.updated",
    NoticeEvent.STARTED: "maintenance.updated",
    NoticeEvent.COMPLETED: "maintenance.updated",
    NoticeEvent.CANCELLED: "maintenance.cancelled",
}


class ContactIn(InputModel):
    email: Email
    company: Reference | None = Field(
        default=None, description="Reference of the customer company the contact belongs to."
    )


class MaintenanceIn(InputModel):
    reference: Reference = Field(description="The provider's own reference: the key.")
    name: Text = Field(max_length=300)
    type: MaintenanceType
    classification: MaintenanceClassification
    status: MaintenanceStatus
    date_start: UtcDateTime
    date_end: UtcDateTime
    date_notification: UtcDateTime | None = None
    services: list[Reference] | None = Field(
        default=None, description="References of the impacted services."
    )
    contacts: list[Email | ContactIn] | None = Field(
        default=None,
        description="Contacts notified: an e-mail, or an e-mail with the reference of the "
        "customer company it belongs to (only that company's users see it).",
    )

    def contact_list(self) -> list[ContactIn]:
        given = [c if isinstance(c, ContactIn) else ContactIn(email=c) for c in self.contacts or ()]
        return list({contact.email: contact for contact in given}.values())


def check(db: Session, entries: Entries[MaintenanceIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    maintenances = rows_by(
        db,
        Maintenance.reference,
        (item.reference for item in items),
        preload(Maintenance.services, Maintenance.contacts),
    )
    services = rows_by(
        db, Service.reference, (ref for item in items for ref in item.services or ())
    )
    contacts = [contact for item in items for contact in item.contact_list()]
    companies = rows_by(db, Company.reference, (contact.company for contact in contacts))
    users = rows_by(db, User.email, (contact.email for contact in contacts))
    for index, item in entries:
        if item.date_end < item.date_start:
            violations.append(Violation(path(index, "dateEnd"), END_BEFORE_START))
        for position, ref in enumerate(item.services or ()):
            violations += unknown(index, f"services[{position}]", ref, services)
        for position, contact in enumerate(item.contact_list()):
            if contact.company is not None:
                field = f"contacts[{position}].company"
                violations += unknown(index, field, contact.company, companies)
    return (maintenances, services, companies, users), violations


def _contact_company(contact: ContactIn, companies: Any, users: Any) -> Any:
    if contact.company is not None:
        return companies[contact.company].id
    user = users.get(contact.email)
    return user.company_id if user is not None else None


# What a change of status tells the companies that knew of the maintenance.
STATUS_EVENTS = {
    MaintenanceStatus.SCHEDULED: NoticeEvent.CHANGED,
    MaintenanceStatus.ONGOING: NoticeEvent.STARTED,
    MaintenanceStatus.COMPLETED: NoticeEvent.COMPLETED,
    MaintenanceStatus.CANCELLED: NoticeEvent.CANCELLED,
}
# A maintenance loaded already over tells nobody: an import of the past sends no mail.
_OVER = (MaintenanceStatus.COMPLETED, MaintenanceStatus.CANCELLED)


def _impacted(maintenance: Maintenance) -> dict[uuid.UUID, set[uuid.UUID]]:
    """The impacted services of a maintenance, by company."""
    found: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
    for service in maintenance.services:
        found[service.company_id].add(service.id)
    return found


@dataclass(frozen=True)
class Told:
    """What a maintenance's notices told before a batch: its status, times, impact and the
    services it touched, by company."""

    status: MaintenanceStatus
    date_start: datetime
    date_end: datetime
    classification: MaintenanceClassification
    services: dict[uuid.UUID, set[uuid.UUID]]

    @classmethod
    def of(cls, maintenance: Maintenance) -> "Told":
        return cls(
            maintenance.status,
            as_utc(maintenance.date_start),
            as_utc(maintenance.date_end),
            maintenance.classification,
            _impacted(maintenance),
        )


def notice_events(before: Told | None, after: Maintenance) -> dict[NoticeEvent, set[uuid.UUID]]:
    """The companies to tell of a maintenance's change, by what the change is to each: its
    time, impact, status or the services it touches (docs/decisions/maintenance-notices.md);
    ``before`` is None for a new maintenance."""
    after_services = _impacted(after)
    found: dict[NoticeEvent, set[uuid.UUID]] = defaultdict(set)
    if before is None:
        if after.status not in _OVER and as_utc(after.date_end) > utcnow():
            event = STATUS_EVENTS[after.status]
            found[NoticeEvent.SCHEDULED if event is NoticeEvent.CHANGED else event] |= set(
                after_services
            )
        return found
    if before.status in _OVER and after.status in _OVER:
        return found  # amending the record of a maintenance that is over
    before_services = before.services
    status_changed = before.status != after.status
    timing_changed = (
        before.date_start != as_utc(after.date_start)
        or before.date_end != as_utc(after.date_end)
        or before.classification != after.classification
    )
    for company in set(before_services) | set(after_services):
        if company not in after_services:
            found[NoticeEvent.CANCELLED].add(company)
        elif company not in before_services:
            if after.status not in _OVER:
                found[NoticeEvent.SCHEDULED].add(company)
        elif status_changed:
            found[STATUS_EVENTS[after.status]].add(company)
        elif timing_changed or before_services[company] != after_services[company]:
            found[NoticeEvent.CHANGED].add(company)
    return found


def write(db: Session, entries: Entries[MaintenanceIn], resolved: Any) -> Counts:
    maintenances, services, companies, users = resolved
    counts = Counts()
    changes = []
    for _, item in entries:
        values = item.values(
            "reference", "name", "type", "classification", "status", "date_start", "date_end"
        ) | item.values("date_notification")
        stored = maintenances.get(item.reference)
        before = Told.of(stored) if stored is not None else None
        maintenance, created, changed = upsert_row(Maintenance, stored, values)
        if item.services is not None:
            wanted = [services[ref] for ref in dict.fromkeys(item.services)]
            if {s.id for s in maintenance.services} != {s.id for s in wanted}:
                maintenance.services = wanted
                changed = True
        if item.contacts is not None:
            wanted_contacts = [
                (contact.email, _contact_company(contact, companies, users))
                for contact in item.contact_list()
            ]
            stored_contacts = [(c.email, c.company_id) for c in maintenance.contacts]
            if sorted(stored_contacts, key=str) != sorted(wanted_contacts, key=str):
                maintenance.contacts = [
                    MaintenanceContact(maintenance_id=maintenance.id, email=email, company_id=owner)
                    for email, owner in wanted_contacts
                ]
                changed = True
        if changed and not created:
            # Calendar programs take a change only with a higher SEQUENCE (RFC 5545).
            maintenance.sequence += 1
            maintenance.updated_at = utcnow()
        db.add(maintenance)
        counts.add(created, changed)
        if changed:
            changes.append((before, maintenance))
    db.flush()  # the notices refer to the new maintenances
    for before, maintenance in changes:
        for event, company_ids in notice_events(before, maintenance).items():
            announce(db, maintenance.id, event, company_ids)
            webhooks.announce_change(db, WEBHOOK_EVENTS[event], maintenance.id, company_ids)
    return counts


KIND = Kind(
    name="maintenance",
    path="maintenances",
    model=MaintenanceIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update maintenance windows",
    description="Upsert up to 1 000 maintenances keyed on `reference`, with the impacted "
    "services (by reference) and the contacts notified.",
    example=[
        {
            "reference": "MNT-2026-118",
            "name": "Line card replacement, Paris PA2",
            "type": "preventive",
            "classification": "outage",
            "status": "scheduled",
            "dateStart": "2026-12-02T01:00:00Z",
            "dateEnd": "2026-12-02T05:00:00Z",
            "dateNotification": "2026-11-18T10:00:00Z",
            "services": ["PB-IPT-24017"],
            "contacts": [
                "noc@patchbay.test",
                {"email": "noc@acme-networks.test", "company": "C-1001"},
            ],
        }
    ],
)
