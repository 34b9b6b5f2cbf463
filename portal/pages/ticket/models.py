"""A ticket as its page shows it: plain values, the date formatted, download URLs built; its
conversation's messages (issue 49)."""

import datetime as dt

from pydantic import BaseModel, Field

from portal import routes
from portal.client import uuid_from_iri
from portal.client.models import Ticket, TicketMessage
from portal.connections import backend_url
from portal.i18n import format_moment


class Attachment(BaseModel):
    name: str = ""
    url: str = ""


class TicketDetail(BaseModel):
    id: str = ""
    number: str = ""
    subject: str = ""
    date_created: str = ""
    status: str = ""
    priority: str = ""
    requester_email: str = ""
    technician_email: str = ""
    account_name: str = ""
    type: str = ""
    service_reference: str = ""
    # The service's page when the user may read the service; "" otherwise.
    service_path: str = ""
    # Sanitised by the provider (DESIGN 4): rendered as it is.
    description: str = ""
    attachments: list[Attachment] = Field(default_factory=list)
    # Issue 49: what the caller may do now, as the provider says.
    can_write: bool = False
    can_close: bool = False
    # Until when a closed ticket may be reopened, formatted; "" when it may not.
    reopenable_until: str = ""

    @classmethod
    def of(
        cls, ticket: Ticket, language: str, zone: str, now: dt.datetime | None = None
    ) -> "TicketDetail":
        until = ticket.reopenable_until
        reopenable = until is not None and until > (now or dt.datetime.now(dt.UTC))
        return cls(
            id=ticket.id,
            number=f"#{ticket.number}",
            subject=ticket.subject,
            date_created=format_moment(ticket.date_created, language, zone),
            status=ticket.status,
            priority=ticket.priority,
            requester_email=ticket.requester_email or "",
            technician_email=ticket.technician_email or "",
            account_name=ticket.account_name or "",
            type=ticket.type or "",
            service_reference=ticket.service_reference or "",
            service_path=routes.service_path(uuid_from_iri(ticket.service))
            if ticket.service
            else "",
            description=ticket.description or "",
            attachments=[
                Attachment(
                    name=attachment.filename,
                    url=backend_url(routes.file_path(attachment.download_url)),
                )
                for attachment in ticket.attachments
                if attachment.download_url
            ],
            can_write=ticket.can_write,
            can_close=ticket.can_close,
            reopenable_until=format_moment(until, language, zone) if reopenable else "",
        )


class MessageView(BaseModel):
    """One message as the conversation shows it: the customer's side or the provider's."""

    id: str = ""
    author: str = ""
    from_provider: bool = False
    # Sanitised (the client cleans what arrives): rendered as it is.
    body: str = ""
    created: str = ""
    attachments: list[Attachment] = Field(default_factory=list)

    @classmethod
    def of(cls, message: TicketMessage, language: str, zone: str) -> "MessageView":
        return cls(
            id=message.id,
            author=message.author,
            from_provider=message.author_type == "provider",
            body=message.body,
            created=format_moment(message.created, language, zone),
            attachments=[
                Attachment(name=file.name, url=backend_url(routes.file_path(file.url)))
                for file in message.attachments
                if file.url
            ],
        )
