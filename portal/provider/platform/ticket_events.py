"""The helpdesk's feed of what customers did in the portal (``ticket_events``): written by the
support routes, read by the integration API in the order of its ids, the feed's cursor.

A reader that has seen event 12 must never find an event 11 committed after it: each event is
therefore written under a transaction lock (PostgreSQL's advisory lock, held to the commit;
SQLite writes one transaction at a time anyway), so ids are committed in their order
(docs/decisions/ticket-conversations.md).

The housekeeping purges events older than ``TICKET_EVENT_RETENTION_DAYS`` and keeps how far it
went (``ticket_feed_horizon``): a cursor before that point may have missed events, and the feed
says so (410) rather than skip them silently.
"""

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import case
from sqlmodel import Session, col, delete, func, select

from portal.provider.platform import webhooks
from portal.provider.platform.db import upsert
from portal.provider.platform.models import (
    Ticket,
    TicketEvent,
    TicketEventType,
    TicketFeedHorizon,
)

# Any number of this application's own: the key of the lock of the feed's writers.
_LOCK_KEY = 4_904_049


def lock_feed(db: Session) -> None:
    """Hold the feed's writers' lock to the end of ``db``'s transaction (PostgreSQL; SQLite
    has one writer at a time anyway). Taken again by the same transaction, it is a no-op."""
    if db.get_bind().dialect.name == "postgresql":
        db.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})


def record_event(
    db: Session,
    event_type: TicketEventType,
    ticket_id: uuid.UUID,
    *,
    message_id: uuid.UUID | None = None,
    attachment_id: uuid.UUID | None = None,
    locked: bool = False,
) -> None:
    """Add the event to ``db``'s transaction, in the feed's order (``locked``: the caller
    already holds the feed's lock); the caller commits."""
    if not locked:
        lock_feed(db)
    db.add(
        TicketEvent(
            type=event_type, ticket_id=ticket_id, message_id=message_id, attachment_id=attachment_id
        )
    )
    # The customer's own change reaches the company's webhooks too (issue 51).
    company_id = db.get_one(Ticket, ticket_id).company_id  # loaded by the caller: no query
    webhook_event = (
        "ticket.created" if event_type is TicketEventType.TICKET_OPENED else "ticket.updated"
    )
    webhooks.announce_change(db, webhook_event, ticket_id, [company_id])


def purge_events(db: Session, before: datetime) -> int:
    """Delete the events written before ``before`` (and any of a lower id) and move the
    horizon up to the last one deleted; the caller commits. Returns the events deleted."""
    last = db.exec(select(func.max(TicketEvent.id)).where(col(TicketEvent.created) < before)).one()
    if last is None:
        return 0
    deleted = db.exec(delete(TicketEvent).where(col(TicketEvent.id) <= last)).rowcount
    through = col(TicketFeedHorizon.purged_through)
    db.exec(
        upsert(db, TicketFeedHorizon)
        .values(id=1, purged_through=last)
        # Two purges at once: the horizon only ever moves up.
        .on_conflict_do_update(
            index_elements=["id"],
            set_={"purged_through": case((through < last, last), else_=through)},
        )
    )
    return deleted


def purged_through(db: Session) -> int:
    """The last event the purge deleted (0: none yet)."""
    return db.exec(select(TicketFeedHorizon.purged_through)).first() or 0
