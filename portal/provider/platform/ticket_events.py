"""The helpdesk's feed of what customers did in the portal (``ticket_events``): written by the
support routes, read by the integration API in the order of its ids, the feed's cursor.

A reader that has seen event 12 must never find an event 11 committed after it: each event is
therefore written under a transaction lock (PostgreSQL's advisory lock, held to the commit;
SQLite writes one transaction at a time anyway), so ids are committed in their order
(docs/decisions/ticket-conversations.md).
"""

import uuid

import sqlalchemy as sa
from sqlmodel import Session

from portal.provider.platform.models import TicketEvent, TicketEventType

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
