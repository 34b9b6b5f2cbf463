"""Messages leave only once the change they announce is committed, and off the request's path.

``queue(db, message)`` keeps the message with the database session; when that session commits,
the message is handed to a small thread pool, so a slow SMTP server neither delays the answer
nor lets its timing tell whether an account exists. A rollback drops the queued messages: no
mail carries a token that was never stored.
"""

import logging
from concurrent.futures import Future, ThreadPoolExecutor, wait
from email.message import EmailMessage
from threading import Lock

from sqlalchemy import event
from sqlalchemy.orm import Session

from portal.provider.mail.transport import deliver

logger = logging.getLogger(__name__)

_OUTBOX_KEY = "patchbay_outbox"
_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="mail")
_pending: set[Future[None]] = set()
_pending_lock = Lock()


def queue(db: Session, message: EmailMessage) -> None:
    """Send ``message`` when ``db`` next commits."""
    db.info.setdefault(_OUTBOX_KEY, []).append(message)


def _deliver_logged(message: EmailMessage) -> None:
    try:
        deliver(message)
    except Exception:
        # Nothing to answer to any more: the request has ended. The log keeps the failure.
        logger.exception("Could not send the mail %r to %s", message["Subject"], message["To"])


def _forget(future: Future[None]) -> None:
    with _pending_lock:
        _pending.discard(future)


@event.listens_for(Session, "after_commit")
def _send_queued(db: Session) -> None:
    for message in db.info.pop(_OUTBOX_KEY, []):
        future = _executor.submit(_deliver_logged, message)
        with _pending_lock:
            _pending.add(future)
        future.add_done_callback(_forget)


@event.listens_for(Session, "after_rollback")
def _drop_queued(db: Session) -> None:
    db.info.pop(_OUTBOX_KEY, None)


def wait_for_deliveries(timeout: float = 30) -> None:
    """Block until every message handed over so far is sent or has failed (tests, the CLI)."""
    with _pending_lock:
        pending = set(_pending)
    wait(pending, timeout=timeout)
