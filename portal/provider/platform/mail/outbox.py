"""The mail outbox: a message is a row of ``mail_outbox``, written in the transaction of the
change it announces, and sent from there — at once after the commit, and again later if the
mail server failed (docs/decisions/operations-faults.md).

``queue(db, message)`` adds the row; a rollback drops it with the token it carries, so no mail
announces what was never stored. After the commit a small thread pool tries the due messages
(a slow SMTP server neither delays the answer nor lets its timing tell whether an account
exists); every worker's ``run_delivery_loop`` tries them again every few seconds, each failure
doubling the wait from ``MAIL_RETRY_SECONDS`` until ``MAIL_MAX_ATTEMPTS``. A row is claimed by
one atomic UPDATE before it is sent, so two workers or instances never send it twice at once.
"""

import asyncio
import email
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from email.message import Message
from email.policy import compat32
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import CursorResult, Engine
from sqlalchemy.orm import Session
from sqlmodel import col, select

from portal import metrics
from portal.logs import redact
from portal.provider.platform.after_commit import AfterCommit
from portal.provider.platform.mail.transport import deliver
from portal.provider.platform.models import OutboxMail, utcnow
from portal.settings import get_settings

logger = logging.getLogger(__name__)

# A stored mail is sent as it was written: its headers are not folded again (a long one would
# move onto a line of its own, and read with a leading space).
_AS_STORED = compat32.clone(max_line_length=None)
# How long a claimed row is left to its sender before another may try it (a crashed worker).
CLAIM_SECONDS = 120
LOOP_SECONDS = 5
_BATCH = 50


def queue(db: Session, message: Message) -> None:
    """Keep ``message`` in the outbox of ``db``'s transaction; it leaves once that commits."""
    db.add(
        OutboxMail(
            recipient=str(message["To"])[:320],
            subject=str(message["Subject"])[:300],
            body=message.as_string(),
        )
    )
    _after_commit.request(db)


def wait_for_deliveries(timeout: float = 30) -> None:
    """Block until the tries started by the commits so far have ended (tests, the CLI)."""
    _after_commit.wait(timeout)


def deliver_due(engine: Engine, now: datetime | None = None) -> int:
    """Try every message whose time has come, a batch after another until none is left (the
    notices of a large maintenance are thousands); returns how many were sent."""
    now = now or utcnow()
    sent = 0
    while True:
        with Session(engine) as db:
            due = db.scalars(
                select(OutboxMail.id)
                .where(
                    col(OutboxMail.sent_at).is_(None),
                    col(OutboxMail.given_up_at).is_(None),
                    col(OutboxMail.next_attempt_at) <= now,
                    _unclaimed(now),
                )
                .order_by(col(OutboxMail.next_attempt_at))
                .limit(_BATCH)
            ).all()
        sent += sum(_try(engine, mail_id, now) for mail_id in due)
        if len(due) < _BATCH:
            return sent


def _unclaimed(now: datetime) -> sa.ColumnElement[bool]:
    return sa.or_(col(OutboxMail.claimed_until).is_(None), col(OutboxMail.claimed_until) < now)


def _try(engine: Engine, mail_id: object, now: datetime) -> bool:
    claim = (
        sa.update(OutboxMail)
        .where(
            col(OutboxMail.id) == mail_id,
            col(OutboxMail.sent_at).is_(None),
            _unclaimed(now),
        )
        .values(claimed_until=now + timedelta(seconds=CLAIM_SECONDS))
    )
    with Session(engine) as db:
        claimed = cast(CursorResult[Any], db.execute(claim))
        if claimed.rowcount != 1:
            db.rollback()
            return False  # another worker has it
        db.commit()
        mail = db.get_one(OutboxMail, mail_id)
        # Read with the compat32 classes, as stored: the header objects of the default policy
        # cost more than the sending (docs/decisions/maintenance-notices.md).
        message = email.message_from_string(mail.body, policy=_AS_STORED)
        try:
            deliver(message)
        except Exception as error:
            _failed(db, mail, error)
            return False
        # A statement, not the loaded row: the row may have been deleted meanwhile (a purge, a
        # test emptying its tables), and the mail has gone out all the same.
        sent = (
            sa.update(OutboxMail)
            .where(col(OutboxMail.id) == mail_id)
            .values(
                sent_at=utcnow(),
                attempts=col(OutboxMail.attempts) + 1,
                body="",  # the link it carried is no business of the database any more
                claimed_until=None,
                last_error="",
            )
        )
        db.execute(sent)
        db.commit()
    metrics.MAILS.labels("sent").inc()
    return True


def _failed(db: Session, mail: OutboxMail, error: Exception) -> None:
    settings = get_settings()
    mail.attempts += 1
    mail.claimed_until = None
    mail.last_error = redact(f"{type(error).__name__}: {error}")[:300]
    if mail.attempts >= settings.mail_max_attempts:
        mail.given_up_at = utcnow()
        outcome, next_try = "given_up", "given up"
    else:
        wait_seconds = settings.mail_retry_seconds * 2 ** (mail.attempts - 1)
        mail.next_attempt_at = utcnow() + timedelta(seconds=wait_seconds)
        outcome, next_try = "failed", f"next try in {wait_seconds} s"
    subject, recipient, attempts = mail.subject, mail.recipient, mail.attempts
    db.commit()
    metrics.MAILS.labels(outcome).inc()
    logger.error(
        "Could not send the mail %r to %s (attempt %d, %s)",
        subject,
        recipient,
        attempts,
        next_try,
        exc_info=error,
    )


_after_commit = AfterCommit("mail", deliver_due, "The mail outbox could not be read")


def pending_count(engine: Engine) -> int:
    with Session(engine) as db:
        return (
            db.scalar(
                select(sa.func.count())
                .select_from(OutboxMail)
                .where(col(OutboxMail.sent_at).is_(None), col(OutboxMail.given_up_at).is_(None))
            )
            or 0
        )


async def run_delivery_loop(
    engine: Engine,
    interval: float = LOOP_SECONDS,
    producers: Sequence[Callable[[Engine], object]] = (),
) -> None:
    """Every ``interval`` seconds, let each of ``producers`` queue the mails whose time has come
    (the maintenance notices), then send what is due (those, and the retries); runs until
    cancelled."""
    while True:
        await asyncio.sleep(interval)
        try:
            for produce in producers:
                await asyncio.to_thread(produce, engine)
            await asyncio.to_thread(deliver_due, engine)
            metrics.MAIL_OUTBOX_PENDING.set(await asyncio.to_thread(pending_count, engine))
        except Exception as error:
            # The database may be down: the mails wait in it, and the loop goes on.
            logger.warning("The mail outbox could not be read: %s", type(error).__name__)
