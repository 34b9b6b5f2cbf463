"""Password hashing with argon2id (DESIGN section 4).

A hash takes a tenth of a second of every core on purpose. When many users log in at once (a
morning rush), those hashes would take the cores from everyone already logged in, whose clicks
wait behind them. So hashing runs on threads of its own, one per core, at a lower CPU priority:
a login waits a little longer during a rush, every other request goes first
(docs/decisions/password-hashing-priority.md).
"""

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from portal.settings import get_settings

# Automated test runs (ENVIRONMENT=test) hash and verify passwords thousands of times: they take
# argon2id's smallest work factors, through the same code. Everywhere else, the library's
# current recommended parameters.
TEST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
_hasher = TEST_HASHER if get_settings().environment == "test" else PasswordHasher()

# How much nicer than the process the hashing threads are (the threads argon2 starts for its
# lanes inherit it): 10 steps give a request's thread about nine times their share of a core.
HASHING_NICENESS = 10
_NICEST = 19


def _lower_priority() -> None:
    # Linux sets a nice value per thread when given a thread id; elsewhere it would lower the
    # whole process, so hashing keeps the process's priority there.
    if sys.platform.startswith("linux"):
        thread = threading.get_native_id()
        niceness = os.getpriority(os.PRIO_PROCESS, thread) + HASHING_NICENESS
        os.setpriority(os.PRIO_PROCESS, thread, min(niceness, _NICEST))


def _new_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(
        max_workers=os.cpu_count() or 1,
        thread_name_prefix="argon2id",
        initializer=_lower_priority,
    )


_pool = _new_pool()


def _pool_for_child() -> None:
    # A forked worker does not inherit its parent's threads, only the pool's record of them.
    global _pool
    _pool = _new_pool()


os.register_at_fork(after_in_child=_pool_for_child)


T = TypeVar("T")


def _on_hashing_thread(work: Callable[[], T]) -> T:
    return _pool.submit(work).result()


def hash_password(password: str) -> str:
    return _on_hashing_thread(lambda: _hasher.hash(password))


@cache
def _dummy_hash() -> str:
    return _hasher.hash("patchbay-dummy-password")


def _verify(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; without a hash (unknown account, no password set yet) a
    dummy hash is verified anyway, so the answer takes as long and reveals nothing."""
    return _on_hashing_thread(lambda: _verify(password_hash, password))


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's."""
    return _hasher.check_needs_rehash(password_hash)
