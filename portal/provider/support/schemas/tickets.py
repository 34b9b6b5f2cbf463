"""Support tickets as the API shows them (spec sections 3 and 4: Ticket, Ticket status)."""

import datetime as dt
import uuid
from dataclasses import dataclass
from operator import itemgetter
from typing import Annotated, Any

from fastapi import Depends
from pydantic import Field

from portal.i18n import N_, gettext
from portal.markup import sanitize_html
from portal.provider.platform.embeds import CompanyRef, company_iri, company_ref
from portal.provider.platform.hydra import ApiModel, Resource, embeddable, iri
from portal.provider.platform.models import (
    STATUS_LABELS,
    Company,
    Ticket,
    TicketPriority,
    TicketStatus,
)

PRIORITY_LABELS = {
    TicketPriority.LOW: N_("Low"),
    TicketPriority.MEDIUM: N_("Medium"),
    TicketPriority.HIGH: N_("High"),
    TicketPriority.CRITICAL: N_("Critical"),
}


class AttachmentOut(ApiModel):
    id: str
    size: int
    filename: str
    download_url: str = Field(description="Download path of the file.")


class TicketOut(Resource):
    type: str = Field(default="Ticket", alias="@type")
    number: int = Field(description="Shown as #number.")
    name: str
    date_created: dt.datetime
    subject: str
    status: str
    status_label: str
    state: str = Field(description="active or closed: a ticket is active unless it is closed.")
    priority: str
    priority_label: str
    description: str | None = Field(
        default=None, description="Sanitised HTML; sent by the item route only."
    )
    short_description: str | None
    requester_email: str | None
    technician_email: str | None
    account_name: str | None
    ticket_type: str | None = Field(alias="type")
    service_reference: str | None
    service: str | None = Field(
        default=None,
        description="IRI of the service of serviceReference when the user may read it (item "
        "route only).",
    )
    company: CompanyRef | str
    attachments: list[AttachmentOut]
    has_unread_reply: bool = Field(
        description="A provider message is newer than the caller last read the conversation."
    )
    can_write: bool = Field(description="The caller may post messages and files now.")
    can_close: bool = Field(description="The caller may close the ticket now.")
    reopenable_until: dt.datetime | None = Field(
        description="While a closed ticket may still be reopened by the caller: until when."
    )


@dataclass(frozen=True)
class Standing:
    """Where the caller stands with a ticket: what they may do, whether a reply is unread."""

    has_unread_reply: bool = False
    may_write: bool = False
    reopenable_until: dt.datetime | None = None


def attachment_path(ticket_id: uuid.UUID, attachment_id: uuid.UUID) -> str:
    return f"{iri('tickets', ticket_id)}/attachments/{attachment_id}"


def _attachment_out(ticket_id: uuid.UUID, row: dict[str, Any]) -> AttachmentOut:
    """An attachment as ``ticket_attachments`` (routes/tickets.py) lists it: JSON's values,
    the id a string."""
    attachment_id = uuid.UUID(row["id"])
    return AttachmentOut(
        id=str(attachment_id),
        size=row["size"],
        filename=row["filename"],
        download_url=attachment_path(ticket_id, attachment_id),
    )


# What the ticket routes embed instead of an IRI: ``includes[]=company``.
TicketIncludes = Annotated[frozenset[str], Depends(embeddable("company"))]


def ticket_out(
    ticket: Ticket,
    attachments: list[dict[str, Any]],
    language: str,
    *,
    company: Company | None = None,
    detail: bool = False,
    service_iri: str | None = None,
    standing: Standing = Standing(),
) -> TicketOut:
    open_ = ticket.status is not TicketStatus.CLOSED
    return TicketOut(
        iri=iri("tickets", ticket.id),
        id=str(ticket.id),
        number=ticket.number,
        name=ticket.name,
        date_created=ticket.date_created,
        subject=ticket.subject,
        status=ticket.status,
        status_label=gettext(language, STATUS_LABELS[ticket.status]),
        state="closed" if ticket.status is TicketStatus.CLOSED else "active",
        priority=ticket.priority,
        priority_label=gettext(language, PRIORITY_LABELS[ticket.priority]),
        # Stored sanitised; cleaned again on the way out, should a row have come another way.
        description=sanitize_html(ticket.description_html) if detail else None,
        short_description=ticket.short_description,
        requester_email=ticket.requester_email,
        technician_email=ticket.technician_email,
        account_name=ticket.account_name,
        ticket_type=ticket.type,
        service_reference=ticket.service_reference,
        service=service_iri,
        company=company_ref(company) if company is not None else company_iri(ticket.company_id),
        attachments=[
            _attachment_out(ticket.id, row)
            for row in sorted(attachments, key=itemgetter("filename"))
        ],
        has_unread_reply=standing.has_unread_reply,
        can_write=standing.may_write and open_,
        can_close=standing.may_write and open_,
        reopenable_until=standing.reopenable_until if standing.may_write else None,
    )
