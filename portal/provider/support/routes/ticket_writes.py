"""Tickets both ways (issue 49), the customer's side: opening a ticket, closing and reopening
it, marking it read, its conversation (messages, files).

Every route first finds the ticket in the caller's scope (another company's is 404), then asks
``WRITE_TICKETS`` on a ticket of the caller's own companies (403: staff, a sales user
impersonating), then the ticket's state (409 when closed), and only then reads, renders and
stores. A message's length (413) and the caller's rate (429) are checked before it is rendered.
"""

import uuid
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, Request, Response
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select
from starlette.concurrency import run_in_threadpool

from portal.i18n import N_, gettext
from portal.provider.platform import audit
from portal.provider.platform.db import SessionDep, planned_once
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import Collection, Pagination, collection, iri, paginated
from portal.provider.platform.json_lists import json_list
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.models import (
    Service,
    Ticket,
    TicketAttachment,
    TicketEventType,
    TicketMessage,
    TicketStatus,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, through_visible_services
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.platform.ticket_events import record_event
from portal.provider.platform.uploads import multipart_body, read_upload
from portal.provider.support.attachments import check_file, check_room, store_attachment
from portal.provider.support.conversations import (
    close,
    count_message,
    mark_read,
    may_write_tickets,
    open_ticket,
    post_message,
    refuse_if_closed,
    refuse_long_body,
    reopen,
    ticket_to_write,
)
from portal.provider.support.queries import visible_tickets
from portal.provider.support.routes.tickets import one_ticket_out
from portal.provider.support.schemas.messages import (
    MessageAttachmentOut,
    MessageIn,
    MessageOut,
    TicketIn,
    TicketStatusIn,
    attachment_out,
    message_out,
)
from portal.provider.support.schemas.tickets import TicketIncludes, TicketOut
from portal.settings import get_settings

router = ProviderRouter(prefix="/api/tickets", tags=["tickets"])

INVALID_DATA = N_("The data sent is not valid.")
NOT_YOUR_SERVICE = N_("This service is not one of yours.")
NOT_YOUR_COMPANY = N_("This company is not one of yours.")
CHOOSE_COMPANY = N_("Choose the company this ticket is for.")
NOT_A_MESSAGE = N_("This message is not one of this ticket's.")
BUSY = N_("Another ticket was opened at the same moment: send it again.")
TYPE_LABELS = {
    "incident": N_("Incident"),
    "request": N_("Service request"),
    "question": N_("Question"),
}
MESSAGES_PER_PAGE = 30

_REFUSED: dict[int | str, dict[str, Any]] = {
    403: {"description": "The caller may not write on tickets (staff, a sales user impersonating)."}
}
_ON_TICKET: dict[int | str, dict[str, Any]] = {
    **_REFUSED,
    404: {"description": "No ticket the caller may read has this id."},
}


def _created(what: str) -> dict[int | str, dict[str, Any]]:
    return {
        201: {
            "description": f"Created; `Location` is the new {what}'s IRI.",
            "headers": {
                "Location": {
                    "description": f"The new {what}'s IRI.",
                    "required": True,
                    "schema": {"type": "string", "pattern": "^/api/tickets/"},
                }
            },
        }
    }


def _id_in(reference: str, collection_name: str) -> uuid.UUID | None:
    """The uuid of ``/api/<collection>/<uuid>`` or of a bare uuid; None for anything else."""
    text = reference.strip().rstrip("/")
    prefix, _, last = text.rpartition("/")
    if prefix and prefix != f"/api/{collection_name}":
        return None
    try:
        return uuid.UUID(last)
    except ValueError:
        return None


def _refuse(field: str, message: str) -> ApiError:
    return ApiError(422, INVALID_DATA, violations=[Violation(field, message)])


def _company_and_service(
    db: Session, principal: Principal, body: TicketIn
) -> tuple[uuid.UUID, Service | None]:
    """The new ticket's company and service: the service's when one is named (one of the
    caller's own companies' services), else the company named, else the caller's only one."""
    own = principal.company_ids
    company_id = _id_in(body.company, "companies") if body.company else None
    if body.company and company_id not in own:
        raise _refuse("company", NOT_YOUR_COMPANY)
    if body.service:
        service_id = _id_in(body.service, "services")
        statement = through_visible_services(select(Service), principal).where(
            Service.id == service_id, col(Service.company_id).in_(own)
        )
        service = db.exec(statement).first() if service_id else None
        if service is None:
            raise _refuse("service", NOT_YOUR_SERVICE)
        if company_id is not None and company_id != service.company_id:
            raise _refuse("company", NOT_YOUR_COMPANY)
        return service.company_id, service
    if company_id is not None:
        return company_id, None
    if len(own) == 1:
        return next(iter(own)), None
    raise _refuse("company", CHOOSE_COMPANY)


@router.post(
    "",
    status_code=201,
    response_model=TicketOut,
    responses={
        **_created("ticket"),
        **_REFUSED,
        409: {"description": BUSY},
        429: {"description": "More than 30 tickets and messages in a minute from this user."},
    },
)
def create_ticket(
    body: TicketIn,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: TicketIncludes,
    language: LanguageDep,
) -> TicketOut:
    """Open a ticket: status open, the caller its requester, the company the service's or the
    one chosen. The description is Markdown, rendered and sanitised; files follow with
    `POST /api/tickets/{id}/attachments`. The helpdesk reads it in its feed of events."""
    if not may_write_tickets(principal):
        raise ApiError(403)
    company_id, service = _company_and_service(db, principal, body)
    count_message(db, principal)
    ticket = Ticket(
        company_id=company_id,
        number=0,
        name="",
        subject=body.subject.strip(),
        status=TicketStatus.OPEN,
        priority=body.priority,
        type=gettext(language, TYPE_LABELS[body.type]),
        service_reference=service.reference if service else None,
        service_id=service.id if service else None,
    )
    open_ticket(db, principal, ticket, body.description)
    audit.record(
        db,
        request,
        "ticket.open",
        actor=principal.user,
        impersonator=principal.impersonator,
        ticket=ticket.reference,
    )
    ticket_id = ticket.id  # read before the commit expires the row
    try:
        db.commit()
    except IntegrityError as error:
        db.rollback()
        raise ApiError(409, BUSY) from error
    response.headers["Location"] = iri("tickets", ticket_id)
    return one_ticket_out(db, principal, ticket_id, includes, language)


@router.patch(
    "/{ticket_id}",
    response_model=TicketOut,
    responses={
        **_ON_TICKET,
        409: {"description": "Already closed, not closed, or closed more than 14 days ago."},
    },
)
def change_status(
    ticket_id: uuid.UUID,
    body: TicketStatusIn,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: TicketIncludes,
    language: LanguageDep,
) -> TicketOut:
    """`{"status": "closed"}` closes the ticket; `{"status": "open"}` reopens a ticket closed
    less than 14 days ago. The helpdesk reads either in its feed of events."""
    ticket = ticket_to_write(db, principal, ticket_id)
    if body.status == "closed":
        close(db, ticket)
        action = "ticket.close"
    else:
        reopen(db, ticket)
        action = "ticket.reopen"
    audit.record(
        db,
        request,
        action,
        actor=principal.user,
        impersonator=principal.impersonator,
        ticket=ticket.reference,
    )
    db.commit()
    return one_ticket_out(db, principal, ticket.id, includes, language)


@router.put(
    "/{ticket_id}/read",
    status_code=204,
    response_class=Response,
    responses={404: {"description": "No ticket the caller may read has this id."}},
)
def mark_ticket_read(ticket_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal) -> Response:
    """The caller has read the ticket's conversation up to now: its replies are no longer
    unread (`hasUnreadReply`)."""
    ticket = one_or_404(db, visible_tickets(principal).where(Ticket.id == ticket_id))
    mark_read(db, principal.user.id, ticket.id)
    db.commit()
    return Response(status_code=204)


# A message's files, listed by the database with the page of messages.
_MESSAGE_FILES = json_list(
    {
        "id": col(TicketAttachment.id),
        "size": col(TicketAttachment.size),
        "filename": col(TicketAttachment.filename),
        "contentType": col(TicketAttachment.content_type),
    },
    col(TicketAttachment.message_id) == col(TicketMessage.id),
)
_MESSAGE_ROW = (
    col(TicketMessage.id),
    col(TicketMessage.author_name),
    col(TicketMessage.author_type),
    col(TicketMessage.body_html),
    col(TicketMessage.created),
    _MESSAGE_FILES,
)


def _messages_out(ticket_id: uuid.UUID, rows: Any) -> list[MessageOut]:
    return [message_out(ticket_id, *row) for row in rows]


@router.get("/{ticket_id}/messages", response_model=Collection[MessageOut])
def list_messages(
    ticket_id: uuid.UUID,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: Annotated[Pagination, Depends(paginated(MESSAGES_PER_PAGE))],
) -> Collection[MessageOut]:
    """The conversation, oldest first, 30 messages a page unless asked otherwise; the ticket's
    description is not one of them."""
    ticket = one_or_404(db, visible_tickets(principal).where(Ticket.id == ticket_id))
    of_ticket = col(TicketMessage.ticket_id) == ticket.id
    total = db.exec(select(func.count()).where(of_ticket)).one()
    members: list[MessageOut] = []
    if not page.counts_only:
        statement = (
            sa.select(*_MESSAGE_ROW)
            .where(of_ticket)
            .order_by(col(TicketMessage.created), col(TicketMessage.id))
            .offset(page.offset)
            .limit(page.items_per_page)
        )
        members = _messages_out(ticket.id, db.execute(planned_once(statement)))
    return collection(request, "TicketMessage", members, total, page)


@router.get(
    "/{ticket_id}/messages/{message_id}",
    response_model=MessageOut,
    responses={404: {"description": "No such message on a ticket the caller may read."}},
)
def get_message(
    ticket_id: uuid.UUID, message_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> MessageOut:
    ticket = one_or_404(db, visible_tickets(principal).where(Ticket.id == ticket_id))
    statement = sa.select(*_MESSAGE_ROW).where(
        col(TicketMessage.ticket_id) == ticket.id, col(TicketMessage.id) == message_id
    )
    row = db.execute(planned_once(statement)).first()
    if row is None:
        raise ApiError(404)
    return message_out(ticket.id, *row)


@router.post(
    "/{ticket_id}/messages",
    status_code=201,
    response_model=MessageOut,
    responses={
        **_created("message"),
        **_ON_TICKET,
        409: {"description": "The ticket is closed."},
        413: {"description": "The message is longer than 20 000 characters."},
        429: {"description": "More than 30 messages in a minute from this user."},
    },
)
def create_message(
    ticket_id: uuid.UUID,
    body: MessageIn,
    response: Response,
    db: SessionDep,
    principal: CurrentPrincipal,
) -> MessageOut:
    """A message (Markdown, rendered and sanitised) in the ticket's conversation; its files
    follow with `POST /api/tickets/{id}/attachments` and `message`."""
    ticket = ticket_to_write(db, principal, ticket_id)
    refuse_long_body(body.body)
    refuse_if_closed(ticket)
    count_message(db, principal)
    message = post_message(db, principal, ticket, body.body)
    # Read before the commit, which expires both rows: afterwards each would be read again.
    answer = message_out(
        ticket.id,
        message.id,
        message.author_name,
        message.author_type,
        message.body_html,
        message.created,
        [],
    )
    db.commit()
    response.headers["Location"] = answer.iri
    return answer


def _message_of(db: Session, ticket: Ticket, value: str | None) -> uuid.UUID | None:
    """The message a file is attached to (a message of this ticket), or None for the ticket."""
    if not value:
        return None
    message_id = _id_in(value, f"tickets/{ticket.id}/messages")
    statement = select(TicketMessage.id).where(
        TicketMessage.id == message_id, TicketMessage.ticket_id == ticket.id
    )
    found = db.exec(statement).first() if message_id else None
    if found is None:
        raise _refuse("message", NOT_A_MESSAGE)
    return found


@router.post(
    "/{ticket_id}/attachments",
    status_code=201,
    response_model=MessageAttachmentOut,
    responses={
        201: {"description": "Stored."},
        **_ON_TICKET,
        409: {"description": "The ticket is closed."},
        413: {"description": "The file is larger than TICKET_ATTACHMENT_MAX_BYTES (10 MiB)."},
        422: {
            "description": "No file, a type outside the allow-list, 10 files already, or a "
            "`message` not of this ticket."
        },
    },
    openapi_extra=multipart_body(
        message={
            "type": "string",
            "description": "The id of a message of this ticket: the file belongs to it. Left "
            "out, the file belongs to the ticket itself.",
        }
    ),
)
async def create_attachment(
    ticket_id: uuid.UUID, request: Request, db: SessionDep, principal: CurrentPrincipal
) -> MessageAttachmentOut:
    """A file (multipart field `file`) of a message or of the ticket itself. Its type is read
    from its bytes: PDF, PNG, JPEG, GIF, WebP, text, CSV, logs, pcap, pcapng or zip. It is only
    ever served as a download."""
    ticket = await run_in_threadpool(ticket_to_write, db, principal, ticket_id)
    refuse_if_closed(ticket)
    upload = await read_upload(request, limit=get_settings().ticket_attachment_max_bytes)
    media_type = check_file(upload.name, upload.content)

    def store() -> TicketAttachment:
        message_id = _message_of(db, ticket, upload.fields.get("message"))
        check_room(db, ticket.id, message_id)
        attachment = store_attachment(
            db, ticket.id, message_id, upload.name, upload.content, media_type
        )
        db.flush()
        record_event(db, TicketEventType.ATTACHMENT_ADDED, ticket.id, attachment_id=attachment.id)
        db.commit()
        return attachment

    attachment = await run_in_threadpool(store)
    return attachment_out(
        ticket.id,
        {
            "id": attachment.id,
            "filename": attachment.filename,
            "size": attachment.size,
            "contentType": attachment.content_type,
        },
    )
