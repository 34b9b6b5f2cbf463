"""Support tickets (spec 3 and 4): shown as active or closed, with their attachments."""

import datetime as dt
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity, ProviderModel
from portal.markup import sanitize_html

TicketStatus = Literal[
    "active",
    "open",
    "closed",
    "solved",
    "waitingForAction",
    "inProgress",
    "onHoldRFO",
    "onHold",
    "restoredService",
    "waitingForAcceptance",
    "onHoldCustomerFeedbackRequired",
]
TICKET_STATUSES: tuple[str, ...] = get_args(TicketStatus)


class TicketAttachment(ProviderModel):
    id: str = ""
    size: int = 0
    filename: str = ""
    # A provider download path.
    download_url: str = ""


class Ticket(Entity):
    number: int = 0
    name: str = ""
    date_created: dt.datetime | None = None
    subject: str = ""
    status: str = ""
    status_label: str = ""
    priority: str = ""
    priority_label: str = ""
    # HTML, sent with one ticket only: sanitised here too, whatever the provider did.
    description: Annotated[str, AfterValidator(sanitize_html)] | None = None
    short_description: str | None = None
    requester_email: str | None = None
    technician_email: str | None = None
    account_name: str | None = None
    type: str | None = None
    service_reference: str | None = None
    # The IRI of the service when the user may read it.
    service: str | None = None
    attachments: list[TicketAttachment] = Field(default_factory=list)


class TicketFilters(Filters):
    """The tickets screen's filters (spec 2): id, status (list), subject."""

    id: Annotated[str, Param("id")] = ""
    statuses: Annotated[list[TicketStatus], Param("status")] = []
    subject: Annotated[str, Param("subject")] = ""
