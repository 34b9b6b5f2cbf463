"""Support tickets (spec 3 and 4): shown as active or closed, with their attachments; opened
and answered from the portal (issue 49): the new ticket, the conversation's messages and files."""

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
    # A provider message newer than the caller last read the conversation.
    has_unread_reply: bool = False
    # Whether the caller may post messages and files now, ask to close, or reopen until when.
    can_write: bool = False
    can_close: bool = False
    reopenable_until: dt.datetime | None = None


class MessageFile(ProviderModel):
    """A file of a conversation: ``url`` is a provider download path."""

    id: str = ""
    name: str = ""
    size: int = 0
    content_type: str = ""
    url: str = ""


class TicketMessage(Entity):
    """One message of a ticket's conversation, from the customer's side or the provider's."""

    author: str = ""
    author_type: Literal["customer", "provider"] = "customer"
    # HTML rendered by the provider from Markdown: sanitised here too, whatever it did.
    body: Annotated[str, AfterValidator(sanitize_html)] = ""
    created: dt.datetime | None = None
    attachments: list[MessageFile] = Field(default_factory=list)


class NewTicket(ProviderModel):
    """The body of ``POST /api/tickets``: the service and the company by uuid, each left out
    when not chosen (the company is the service's, or the user's only one)."""

    subject: str
    description: str
    type: str
    priority: str
    service: str | None = None
    company: str | None = None

    def body(self) -> dict[str, object]:
        return self.model_dump(by_alias=True, mode="json", exclude_none=True)


class TicketFilters(Filters):
    """The tickets screen's filters (spec 2): id, status (list), subject."""

    id: Annotated[str, Param("id")] = ""
    statuses: Annotated[list[TicketStatus], Param("status")] = []
    subject: Annotated[str, Param("subject")] = ""
