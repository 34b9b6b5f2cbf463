"""A ticket as the list shows it (card or table row)."""

from pydantic import BaseModel

from portal import routes
from portal.client.models import Ticket
from portal.i18n import format_day


class TicketRow(BaseModel):
    id: str = ""
    path: str = ""
    number: str = ""
    status: str = ""
    priority: str = ""
    subject: str = ""
    account_name: str = ""
    date_created: str = ""
    # A provider reply the user has not read yet (issue 49).
    unread: bool = False

    @classmethod
    def of(cls, ticket: Ticket, language: str, zone: str) -> "TicketRow":
        return cls(
            id=ticket.id,
            path=routes.ticket_path(ticket.id),
            number=f"#{ticket.number}",
            status=ticket.status,
            priority=ticket.priority,
            subject=ticket.subject,
            account_name=ticket.account_name or "",
            date_created=format_day(ticket.date_created, language, zone),
            unread=ticket.has_unread_reply,
        )
