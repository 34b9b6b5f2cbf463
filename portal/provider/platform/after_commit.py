"""Work that starts once a transaction has committed what it needs — the mail outbox's sending,
the webhooks' deliveries: a session asks for it with ``AfterCommit.request(db)``; when that
session commits, ``job(engine)`` runs in a small thread pool (the answer does not wait for it);
a rollback forgets the request. ``wait`` blocks until the runs started so far have ended (tests,
the command line)."""

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from threading import Lock

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

logger = logging.getLogger(__name__)

# The names of the threads that run the jobs begin so: the benchmark's round-trip count leaves
# their statements out, as the request does not wait for them.
THREAD_PREFIX = "after-commit"


class AfterCommit:
    def __init__(self, name: str, job: Callable[[Engine], object], failure: str) -> None:
        self._key = f"patchbay_after_commit_{name}"
        self._job = job
        self._failure = failure
        self._executor = ThreadPoolExecutor(
            max_workers=2, thread_name_prefix=f"{THREAD_PREFIX}-{name}"
        )
        self._pending: set[Future[object]] = set()
        self._lock = Lock()
        event.listen(Session, "after_commit", self._committed)
        event.listen(Session, "after_rollback", self._rolled_back)

    def request(self, db: Session) -> None:
        """Run the job once ``db``'s transaction commits."""
        db.info[self._key] = True

    def _committed(self, db: Session) -> None:
        if not db.info.pop(self._key, False):
            return
        bind = db.get_bind()
        engine = bind if isinstance(bind, Engine) else bind.engine
        future = self._executor.submit(self._job, engine)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._forget)

    def _rolled_back(self, db: Session) -> None:
        db.info.pop(self._key, None)

    def _forget(self, future: Future[object]) -> None:
        with self._lock:
            self._pending.discard(future)
        if not future.cancelled() and future.exception() is not None:
            logger.error(self._failure, exc_info=future.exception())

    def wait(self, timeout: float) -> None:
        with self._lock:
            pending = set(self._pending)
        wait_for(pending, timeout=timeout)
