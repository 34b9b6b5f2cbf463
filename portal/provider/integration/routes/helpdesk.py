"""The helpdesk's side of tickets both ways (issue 49): the ordered, resumable feed of what
customers did in the portal, and the files they attached. Replies and changes of status go the
other way as a batch (``kinds/ticket_replies.py``). Both need the ``ticket_replies`` scope.

The feed is ``ticket_events`` in the order of its ids, which commit in that order
(``platform.ticket_events``): a reader that keeps the last cursor it handled and asks for what
came after it misses nothing and sees nothing twice, from whatever cursor it starts.
"""

import uuid
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Query
from fastapi.responses import FileResponse
from pydantic import Field
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.provider.platform.db import SessionDep
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import (
    Company,
    Ticket,
    TicketAttachment,
    TicketEvent,
    TicketMessage,
    User,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import Principal, integration_writer
from portal.provider.platform.ticket_events import purged_through
from portal.settings import get_settings

router = ProviderRouter(prefix="/api/integration", tags=["integration"])

EVENTS_PURGED = N_(
    "The events after this cursor, up to {cursor}, are no longer kept (the feed keeps them "
    "{days} days): ask again from cursor {cursor}, and look for what was missed in the "
    "portal's tickets."
)
SCOPE = "ticket_replies"
HelpdeskReader = Annotated[Principal, Depends(integration_writer(SCOPE))]
DEFAULT_LIMIT = 100
MAX_LIMIT = 500
# ticket_events.id is an INTEGER column: no cursor goes past it, and PostgreSQL refuses a
# comparison with a larger number (a 500, where a cursor out of bounds is the caller's 400).
LAST_CURSOR = 2**31 - 1
_FORBIDDEN: dict[int | str, dict[str, Any]] = {
    403: {
        "description": "The caller is not an administrator, or is an API token without the "
        "`ticket_replies` scope."
    }
}


class FeedCompany(ApiModel):
    reference: str | None
    name: str


class FeedFile(ApiModel):
    id: str
    name: str
    size: int
    content_type: str
    url: str = Field(description="Where the helpdesk downloads it, with its token.")


class FeedTicket(ApiModel):
    id: str
    reference: str | None = Field(description="The key of its replies (`P-…` when opened here).")
    number: int
    subject: str
    status: str
    priority: str
    type: str | None
    service_reference: str | None
    requester_email: str | None
    company: FeedCompany
    description_html: str = Field(description="Sanitised HTML.")
    date_created: datetime


class FeedMessage(ApiModel):
    id: str
    author: str
    author_email: str | None
    body: str = Field(description="The Markdown the customer wrote.")
    body_html: str = Field(description="The same, rendered and sanitised.")
    created: datetime


class FeedEvent(ApiModel):
    cursor: str = Field(description="Ask `after=` this to read what came after the event.")
    type: str = Field(
        description="`ticketOpened`, `messagePosted`, `attachmentAdded`, `ticketClosed` or "
        "`ticketReopened`."
    )
    created: datetime
    ticket: FeedTicket = Field(description="The ticket as it is now.")
    message: FeedMessage | None = Field(description="The message posted (`messagePosted`).")
    attachment: FeedFile | None = Field(
        description="The file added (`attachmentAdded`); `messageId` names its message, if any."
    )
    message_id: str | None = Field(description="The message the file belongs to, if any.")


class EventPage(ApiModel):
    events: list[FeedEvent]
    cursor: str = Field(
        description="The cursor of the last event of this page (or the one asked for when "
        "there is none): send it as `after` next time."
    )
    has_more: bool = Field(description="More events wait after this page: ask again at once.")


def _file(row: TicketAttachment) -> FeedFile:
    """A file by its own id: every ticket's file has one, not every ticket a reference."""
    return FeedFile(
        id=str(row.id),
        name=row.filename,
        size=row.size,
        content_type=row.content_type,
        url=f"/api/integration/ticket_attachments/{row.id}",
    )


def _by_id(db: Session, model: Any, ids: set[Any]) -> dict[Any, Any]:
    if not ids:
        return {}
    return {row.id: row for row in db.exec(select(model).where(col(model.id).in_(ids)))}


def _authors(db: Session, messages: dict[uuid.UUID, TicketMessage]) -> dict[uuid.UUID, str]:
    ids = {m.author_id for m in messages.values() if m.author_id is not None}
    return {user.id: user.email for user in _by_id(db, User, ids).values()}


@router.get(
    "/events",
    response_model=EventPage,
    responses={
        **_FORBIDDEN,
        410: {
            "description": "Events after `after` were purged (kept TICKET_EVENT_RETENTION_DAYS, "
            "30 by default): ask again from the cursor the message names, or from 0."
        },
    },
)
def read_events(
    db: SessionDep,
    _principal: HelpdeskReader,
    after: Annotated[
        int,
        Query(
            ge=0, le=LAST_CURSOR, description="The cursor last handled; 0 (default) from the start."
        ),
    ] = 0,
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIMIT, description="Events in the page (at most 500).")
    ] = DEFAULT_LIMIT,
) -> EventPage:
    """What customers did in the portal after the cursor `after`, oldest first: tickets
    opened, messages posted, files added, tickets closed and reopened. Each event carries the
    ticket as it is now; files are downloaded from their `url` with the same token. Events are
    kept 30 days: a cursor older than the oldest kept is refused (410); 0 reads from it."""
    statement = (
        select(TicketEvent)
        .where(col(TicketEvent.id) > after)
        .order_by(col(TicketEvent.id))
        .limit(limit + 1)
    )
    rows = list(db.exec(statement))
    # Read after the events: a purge that ran meanwhile is seen here, never skipped silently.
    horizon = purged_through(db)
    if 0 < after < horizon:
        raise ApiError(
            410, EVENTS_PURGED, cursor=horizon, days=get_settings().ticket_event_retention_days
        )
    page, has_more = rows[:limit], len(rows) > limit
    tickets = _by_id(db, Ticket, {event.ticket_id for event in page})
    companies = _by_id(db, Company, {ticket.company_id for ticket in tickets.values()})
    messages = _by_id(db, TicketMessage, {e.message_id for e in page if e.message_id})
    files = _by_id(db, TicketAttachment, {e.attachment_id for e in page if e.attachment_id})
    emails = _authors(db, messages)
    events = []
    for event in page:
        ticket = tickets[event.ticket_id]
        company = companies[ticket.company_id]
        message = messages.get(event.message_id)
        file = files.get(event.attachment_id)
        events.append(
            FeedEvent(
                cursor=str(event.id),
                type=event.type,
                created=event.created,
                ticket=FeedTicket(
                    id=str(ticket.id),
                    reference=ticket.reference,
                    number=ticket.number,
                    subject=ticket.subject,
                    status=ticket.status,
                    priority=ticket.priority,
                    type=ticket.type,
                    service_reference=ticket.service_reference,
                    requester_email=ticket.requester_email,
                    company=FeedCompany(reference=company.reference, name=company.name),
                    description_html=ticket.description_html,
                    date_created=ticket.date_created,
                ),
                message=FeedMessage(
                    id=str(message.id),
                    author=message.author_name,
                    author_email=emails.get(message.author_id) if message.author_id else None,
                    body=message.body,
                    body_html=message.body_html,
                    created=message.created,
                )
                if message is not None
                else None,
                attachment=_file(file) if file is not None else None,
                message_id=str(file.message_id) if file and file.message_id else None,
            )
        )
    cursor = str(page[-1].id) if page else str(after)
    return EventPage(events=events, cursor=cursor, has_more=has_more)


@router.get(
    "/ticket_attachments/{attachment_id}",
    response_class=FileResponse,
    responses={**file_answer(), **_FORBIDDEN, 404: {"description": "No such file."}},
)
def download_attachment(
    attachment_id: uuid.UUID, db: SessionDep, _principal: HelpdeskReader
) -> FileResponse:
    """A file of a ticket, as the feed names it; always an attachment."""
    found = db.get(TicketAttachment, attachment_id)
    if found is None:
        raise ApiError(404)
    return attachment(found.file_path, found.filename, found.content_type)
