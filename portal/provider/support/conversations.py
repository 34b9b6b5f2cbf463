"""Tickets both ways (issue 49): who may write on a ticket, and the writes themselves: opening
a ticket, a customer's message, closing and reopening, read marks. Each write a customer makes
is also an event of the helpdesk's feed (``platform.ticket_events``).

Customers write on the tickets of their own companies (``WRITE_TICKETS``); staff read them and
the helpdesk answers through the integration API. How the customer's close and reopen map onto
the spec's statuses, and how tickets opened here are numbered: docs/decisions/
ticket-conversations.md.
"""

import uuid
from datetime import datetime, timedelta

from sqlmodel import Session, col, func, select

from portal.i18n import N_
from portal.markup import render_markdown
from portal.permissions import WRITE_TICKETS, user_writes_blocked
from portal.provider.platform.db import upsert
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import (
    AuthorType,
    Ticket,
    TicketEventType,
    TicketMessage,
    TicketReadMark,
    TicketStatus,
    User,
    utcnow,
)
from portal.provider.platform.rate_limits import Limit, count_in_window, too_many_attempts
from portal.provider.platform.scoping import one_or_404
from portal.provider.platform.security import Principal
from portal.provider.platform.ticket_events import lock_feed, record_event
from portal.provider.support.queries import visible_tickets
from portal.provider.support.schemas.tickets import Standing
from portal.settings import get_settings

# Issue 49: a message, as a description, is at most this long (413 above).
BODY_MAX_LENGTH = 20_000
# A customer may reopen a ticket for this long after it was closed.
REOPEN_DAYS = 14

TICKET_CLOSED = N_("This ticket is closed: reopen it to write on it.")
ALREADY_CLOSED = N_("This ticket is already closed.")
NOT_REOPENABLE = N_("A ticket can be reopened within {days} days of being closed, not after.")
NOT_CLOSED = N_("Only a closed ticket can be reopened.")
BODY_TOO_LONG = N_("A message may be at most {max} characters long.")


def may_write_tickets(principal: Principal) -> bool:
    """The rule, and no sales user impersonating (the writes blocked as for users)."""
    impersonator = principal.impersonator
    return principal.allows(WRITE_TICKETS) and not user_writes_blocked(
        impersonator.roles if impersonator else None
    )


def may_write_on(principal: Principal, ticket: Ticket) -> bool:
    """Whether the principal may write on ``ticket`` at all (closed or not): a ticket of one of
    their own companies (staff read every company's, but write on none)."""
    return may_write_tickets(principal) and ticket.company_id in principal.company_ids


def standing(principal: Principal, ticket: Ticket, read_at: datetime | None) -> Standing:
    """What the principal may do with ``ticket``, and whether a provider reply is unread."""
    last_reply = ticket.last_reply_at
    unread = last_reply is not None and (read_at is None or _aware(read_at) < _aware(last_reply))
    return Standing(unread, may_write_on(principal, ticket), reopenable_until(ticket))


def reopenable_until(ticket: Ticket) -> datetime | None:
    """Until when the closed ``ticket`` may be reopened; None when it is not closed or past it."""
    if ticket.status is not TicketStatus.CLOSED or ticket.closed_at is None:
        return None
    until = _aware(ticket.closed_at) + timedelta(days=REOPEN_DAYS)
    return until if until > utcnow() else None


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored one is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=utcnow().tzinfo)


def ticket_to_write(db: Session, principal: Principal, ticket_id: uuid.UUID) -> Ticket:
    """The ticket the principal writes on: 404 when they may not read it, 403 when they may
    read it but not write (staff, a sales user impersonating)."""
    ticket = one_or_404(db, visible_tickets(principal).where(Ticket.id == ticket_id))
    if not may_write_on(principal, ticket):
        raise ApiError(403)
    return ticket


def refuse_if_closed(ticket: Ticket) -> None:
    if ticket.status is TicketStatus.CLOSED:
        raise ApiError(409, TICKET_CLOSED)


def refuse_long_body(body: str) -> None:
    if len(body) > BODY_MAX_LENGTH:
        raise ApiError(413, BODY_TOO_LONG, max=BODY_MAX_LENGTH)


def message_limit() -> Limit:
    """Tickets opened and messages written a minute per user (TICKET_MESSAGES_PER_MINUTE)."""
    per_minute = get_settings().ticket_messages_per_minute
    return Limit("ticket-messages:user", per_minute, timedelta(minutes=1))


def count_message(db: Session, principal: Principal) -> None:
    """Counts one more message of the user this minute; 429 past the limit. Asked before the
    message is rendered or stored."""
    limit = message_limit()
    window_start, count = count_in_window(db, limit, str(principal.user.id))
    if count > limit.limit:
        left = (_aware(window_start) + limit.window - utcnow()).total_seconds()
        raise too_many_attempts(max(1, int(left) + 1))


def author_name(db: Session, user_id: uuid.UUID) -> str:
    names = db.exec(select(User.firstname, User.lastname).where(User.id == user_id)).one()
    return " ".join(part for part in names if part).strip() or "?"


def _next_number(db: Session) -> int:
    start = get_settings().portal_ticket_number_start
    highest = db.exec(select(func.max(Ticket.number)).where(col(Ticket.number) >= start)).one()
    return max(start, (highest or 0) + 1)


def open_ticket(db: Session, principal: Principal, ticket: Ticket, description: str) -> Ticket:
    """Store the new ``ticket`` (its company, service and texts set) with the next portal
    number, status open, the caller as requester and its ``ticketOpened`` event; the caller
    commits. The feed's lock, held to the commit, keeps two tickets opened at once from
    taking the same number."""
    lock_feed(db)
    ticket.number = _next_number(db)
    ticket.reference = f"P-{ticket.number}"
    ticket.name = f"#{ticket.number}"
    ticket.status = TicketStatus.OPEN
    ticket.requester_email = principal.user.email
    ticket.description_html = render_markdown(description)
    ticket.short_description = description[:500] or None
    db.add(ticket)
    db.flush()
    record_event(db, TicketEventType.TICKET_OPENED, ticket.id, locked=True)
    return ticket


def post_message(db: Session, principal: Principal, ticket: Ticket, body: str) -> TicketMessage:
    """A customer's message on ``ticket``, with its event; the caller commits."""
    message = TicketMessage(
        ticket_id=ticket.id,
        author_type=AuthorType.CUSTOMER,
        author_id=principal.user.id,
        author_name=author_name(db, principal.user.id),
        body=body,
        body_html=render_markdown(body),
    )
    db.add(message)
    db.flush()
    record_event(db, TicketEventType.MESSAGE_POSTED, ticket.id, message_id=message.id)
    # What one writes oneself is read.
    mark_read(db, principal.user.id, ticket.id)
    return message


def close(db: Session, ticket: Ticket) -> None:
    """The customer closes the ticket (issue 49: asks to close it): closed at once."""
    if ticket.status is TicketStatus.CLOSED:
        raise ApiError(409, ALREADY_CLOSED)
    ticket.status = TicketStatus.CLOSED
    ticket.closed_at = utcnow()
    db.add(ticket)
    record_event(db, TicketEventType.TICKET_CLOSED, ticket.id)


def reopen(db: Session, ticket: Ticket) -> None:
    """The customer reopens a ticket closed less than ``REOPEN_DAYS`` ago: open again."""
    if ticket.status is not TicketStatus.CLOSED:
        raise ApiError(409, NOT_CLOSED)
    if reopenable_until(ticket) is None:
        raise ApiError(409, NOT_REOPENABLE, days=REOPEN_DAYS)
    ticket.status = TicketStatus.OPEN
    db.add(ticket)
    record_event(db, TicketEventType.TICKET_REOPENED, ticket.id)


def mark_read(db: Session, user_id: uuid.UUID, ticket_id: uuid.UUID) -> None:
    """The user has read the ticket's conversation up to now."""
    now = utcnow()
    statement = (
        upsert(db, TicketReadMark)
        .values(user_id=user_id, ticket_id=ticket_id, read_at=now)
        .on_conflict_do_update(index_elements=["user_id", "ticket_id"], set_={"read_at": now})
    )
    db.execute(statement)
