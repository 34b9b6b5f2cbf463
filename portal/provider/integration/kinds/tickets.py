"""Support tickets, keyed on their reference; the helpdesk's number stays unique too. The HTML
description is sanitised before it is stored. Attachments are uploaded to
``/api/integration/tickets/{reference}/attachments`` once the ticket exists."""

from typing import Any

from pydantic import Field
from sqlmodel import Session

from portal.i18n import N_
from portal.markup import sanitize_html
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    Email,
    InputModel,
    OptionalText,
    Reference,
    Text,
    UtcDateTime,
    duplicates,
    ids_by,
    path,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform import webhooks
from portal.provider.platform.errors import Violation
from portal.provider.platform.models import (
    Company,
    Service,
    Ticket,
    TicketPriority,
    TicketStatus,
)

NUMBER_TAKEN = N_("Another ticket already has this number.")


class TicketIn(InputModel):
    reference: Reference = Field(description="The helpdesk's reference: the key.")
    number: int = Field(ge=1, description="Shown as #number; unique among tickets.")
    company: Reference = Field(description="Reference of the customer company.")
    name: Text = Field(max_length=200)
    subject: Text = Field(max_length=500)
    status: TicketStatus
    priority: TicketPriority
    date_created: UtcDateTime | None = Field(default=None, description="Defaults to now.")
    description: str | None = Field(
        default=None, max_length=200_000, description="HTML, sanitised before it is stored."
    )
    short_description: OptionalText = Field(default=None, max_length=500)
    requester_email: Email | None = None
    technician_email: Email | None = None
    account_name: OptionalText = Field(default=None, max_length=200)
    type: OptionalText = Field(default=None, max_length=60, examples=["incident"])
    service_reference: OptionalText = Field(
        default=None,
        max_length=100,
        description="The service the ticket is about; one not loaded yet is linked when it is.",
    )


def check(db: Session, entries: Entries[TicketIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    violations += duplicates(entries, lambda item: item.number, "number")
    tickets = rows_by(db, Ticket.reference, (item.reference for item in items))
    numbered = rows_by(db, Ticket.number, (item.number for item in items))
    companies = rows_by(db, Company.reference, (item.company for item in items))
    for index, item in entries:
        holder = numbered.get(item.number)
        if holder is not None and holder.reference != item.reference:
            violations.append(Violation(path(index, "number"), NUMBER_TAKEN))
        violations += unknown(index, "company", item.company, companies)
    services = ids_by(db, Service.reference, (item.service_reference for item in items))
    return (tickets, companies, services), violations


_OPTIONAL = (
    "date_created",
    "short_description",
    "requester_email",
    "technician_email",
    "account_name",
    "type",
    "service_reference",
)


def write(db: Session, entries: Entries[TicketIn], resolved: Any) -> Counts:
    tickets, companies, services = resolved
    counts = Counts()
    for _, item in entries:
        values = {
            "reference": item.reference,
            "company_id": companies[item.company].id,
            **item.values("number", "name", "subject", "status", "priority", *_OPTIONAL),
        }
        if item.given("service_reference"):
            values["service_id"] = services.get(item.service_reference)
        if item.given("description"):
            values["description_html"] = sanitize_html(item.description or "")
        ticket, created, changed = upsert_row(Ticket, tickets.get(item.reference), values)
        db.add(ticket)
        counts.add(created, changed)
        if created or changed:
            db.flush()  # the event shows the ticket as its route reads it
            event = "ticket.created" if created else "ticket.updated"
            webhooks.announce_change(db, event, ticket.id, [ticket.company_id])
    return counts


KIND = Kind(
    name="ticket",
    path="tickets",
    model=TicketIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update support tickets",
    description="Upsert up to 1 000 tickets keyed on `reference`. The HTML description is "
    "sanitised (scripts, styles, event handlers and unsafe links removed).",
    example=[
        {
            "reference": "HD-88231",
            "number": 88231,
            "company": "C-1001",
            "name": "Packet loss on PB-IPT-24017",
            "subject": "Packet loss since 09:40",
            "status": "inProgress",
            "priority": "high",
            "dateCreated": "2026-11-20T09:52:00Z",
            "description": "<p>We see <b>2 %</b> loss towards AS3356.</p>",
            "requesterEmail": "alice.martin@acme-networks.test",
            "type": "incident",
            "serviceReference": "PB-IPT-24017",
        }
    ],
)
