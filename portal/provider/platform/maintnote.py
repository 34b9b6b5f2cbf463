"""The maintnote format (the network operators' BCOP for maintenance notices read by machine):
an iCalendar VEVENT per maintenance whose ``X-MAINTNOTE-*`` properties tell a customer's NOC
tools the provider, the account, the maintenance, each impacted object, the impact and the
status (docs/decisions/maintenance-notices.md).

The maintenance notices carry it as their ``text/calendar; method=PUBLISH`` part, written with
the ``icalendar`` package; the calendar feed writes the same properties with its own lines
(``portal.provider.maintenances.calendar_feed``), for the speed it needs.
"""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from icalendar import Calendar, Event, Parameters

from portal.provider.platform.models import MaintenanceClassification, MaintenanceStatus
from portal.settings import get_settings

PRODID = "-//Patchbay//Maintenance notices//EN"
# The BCOP's impacts; the provider's classifications have no reduced redundancy.
IMPACTS = {
    MaintenanceClassification.NO_IMPACT: "NO-IMPACT",
    MaintenanceClassification.DEGRADED: "DEGRADED",
    MaintenanceClassification.OUTAGE: "OUTAGE",
}
# The BCOP's statuses; a maintenance the provider announces is decided, never TENTATIVE.
STATUSES = {
    MaintenanceStatus.SCHEDULED: "CONFIRMED",
    MaintenanceStatus.ONGOING: "IN-PROCESS",
    MaintenanceStatus.COMPLETED: "COMPLETED",
    MaintenanceStatus.CANCELLED: "CANCELLED",
}
CANCELLED = "CANCELLED"
# The parameter of an object id that carries the customer's own references of the service.
CLIENT_REFERENCE = "X-CLIENT-REFERENCE"


def provider_domain() -> str:
    """``X-MAINTNOTE-PROVIDER``: the provider's domain, that of its staff's e-mails."""
    return get_settings().staff_mail_domain


def uid(maintenance_id: uuid.UUID) -> str:
    """The event's UID: one per maintenance, never changed, unique beyond this provider."""
    return f"{maintenance_id}@{provider_domain()}"


def account(reference: str | None, company_id: uuid.UUID) -> str:
    """``X-MAINTNOTE-ACCOUNT``: the company's reference at the provider, else its id."""
    return reference or str(company_id)


@dataclass(frozen=True)
class ImpactedObject:
    """An impacted service: its reference, and the customer's own references of it."""

    reference: str
    client_references: Sequence[str] = ()


@dataclass(frozen=True)
class Notice:
    """What a maintnote event tells one company of one maintenance."""

    maintenance_id: uuid.UUID
    maintenance_reference: str
    summary: str
    description: str
    date_start: datetime
    date_end: datetime
    sequence: int
    changed_at: datetime
    account: str
    classification: MaintenanceClassification
    # CANCELLED also when the maintenance no longer touches this company's services.
    status: str
    objects: Sequence[ImpactedObject]


def calendar(notice: Notice) -> bytes:
    """The iCalendar object (RFC 5545, ``METHOD:PUBLISH``) of one notice: one VEVENT."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("method", "PUBLISH")
    event = Event()
    event.add("uid", uid(notice.maintenance_id))
    event.add("sequence", notice.sequence)
    event.add("dtstamp", notice.changed_at)
    event.add("last-modified", notice.changed_at)
    event.add("dtstart", notice.date_start)
    event.add("dtend", notice.date_end)
    event.add("summary", notice.summary)
    event.add("description", notice.description)
    event.add("status", "CANCELLED" if notice.status == CANCELLED else "CONFIRMED")
    event.add("transp", "TRANSPARENT")
    event.add("x-maintnote-provider", provider_domain())
    event.add("x-maintnote-account", notice.account)
    event.add("x-maintnote-maintenance-id", notice.maintenance_reference)
    for impacted in notice.objects:
        parameters = Parameters()
        if impacted.client_references:
            parameters[CLIENT_REFERENCE] = list(impacted.client_references)
        event.add("x-maintnote-object-id", impacted.reference, parameters=parameters)
    event.add("x-maintnote-impact", IMPACTS[notice.classification])
    event.add("x-maintnote-status", notice.status)
    cal.add_component(event)
    return bytes(cal.to_ical())
