"""Rate limits on login and password reset, per account and per client address (DESIGN 4).

A fixed window per key: the first attempt opens the window, and an attempt that finds ``limit``
attempts already counted in it is refused. The counters live in the database, so every worker
and instance shares them; each attempt is counted first, by one atomic upsert that returns the
count it reached, so concurrent attempts are all counted and at most ``limit`` of them go on.
Limits and windows are settings (docs/decisions/rate-limits.md).
"""

import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import Request
from sqlalchemy import case
from sqlmodel import Session, col, delete, update

from portal.i18n import N_
from portal.provider.platform.db import upsert
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import RateLimitCounter, utcnow
from portal.provider.platform.sessions import client_address
from portal.settings import get_settings

TOO_MANY_ATTEMPTS = N_("Too many attempts. Please try again in {minutes} min.")
TOO_MANY_REQUESTS = N_("Too many requests with this API token. Please try again in {seconds} s.")


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: timedelta

    def key(self, value: str) -> str:
        # Hashed, so the table keeps neither the e-mails typed nor the addresses they came from.
        return hashlib.sha256(f"{self.name}\0{value}".encode()).hexdigest()


def login_limits() -> tuple[Limit, Limit]:
    settings = get_settings()
    window = timedelta(minutes=settings.login_limit_window_minutes)
    return (
        Limit("login:account", settings.login_limit_per_account, window),
        Limit("login:address", settings.login_limit_per_address, window),
    )


def reset_limits() -> tuple[Limit, Limit]:
    settings = get_settings()
    window = timedelta(minutes=settings.reset_limit_window_minutes)
    return (
        Limit("reset:account", settings.reset_limit_per_account, window),
        Limit("reset:address", settings.reset_limit_per_address, window),
    )


def count_attempt(db: Session, pairs: list[tuple[Limit, str]]) -> int | None:
    """Counts one attempt under each pair before anything else is decided, and answers the
    seconds to wait when any pair is now over its limit (None under every limit). Each count is
    a single upsert that returns the count it reached, so attempts racing each other are
    numbered one by one and no more than the limit's tries go on (issue 47, item 14: 40 wrong
    passwords sent at once got 19 tries when the limit was read first and counted after). The
    caller commits; a success takes its attempt back with ``not_a_failure``."""
    waits: list[int] = []
    for limit, value in pairs:
        window_start, count = count_in_window(db, limit, value)
        if count > limit.limit:
            left = (window_start + limit.window - utcnow()).total_seconds()
            waits.append(max(1, math.ceil(left)))
    return max(waits) if waits else None


def count_in_window(db: Session, limit: Limit, value: str) -> tuple[datetime, int]:
    """Counts one more of ``value`` under ``limit``: the start of its window (opened now if
    the last one has ended) and the count reached in it."""
    now = utcnow()
    window_start, count = col(RateLimitCounter.window_start), col(RateLimitCounter.count)
    expired = window_start <= now - limit.window
    statement = (
        upsert(db, RateLimitCounter)
        .values(id=limit.key(value), window_start=now, count=1)
        .on_conflict_do_update(
            index_elements=["id"],
            set_={
                "window_start": case((expired, now), else_=window_start),
                "count": case((expired, 1), else_=count + 1),
            },
        )
        .returning(window_start, count)
    )
    started, reached = db.connection().execute(statement).one()
    return started, reached


def not_a_failure(
    db: Session, pairs: list[tuple[Limit, str]], *, clears_account: bool = False
) -> None:
    """The attempt ``count_attempt`` counted succeeded: it leaves every counter, since only
    failures count. A completed login also ends the account's failures (the first pair); a
    right password whose second factor is still due does not, or each password typed would
    buy five more guesses of the code."""
    key, count = col(RateLimitCounter.id), col(RateLimitCounter.count)
    # Never below zero: a login of the same account may have cleared it meanwhile.
    one_less = case((count > 0, count - 1), else_=0)
    account = pairs[0][0].key(pairs[0][1])
    new_count = case((key == account, 0), else_=one_less) if clears_account else one_less
    keys = [limit.key(value) for limit, value in pairs]
    db.exec(update(RateLimitCounter).where(key.in_(keys)).values(count=new_count))


def purge_expired(db: Session) -> None:
    """Drop the counters whose window has ended, whatever limit they belong to."""
    longest = max(limit.window for limit in (*login_limits(), *reset_limits()))
    db.exec(delete(RateLimitCounter).where(col(RateLimitCounter.window_start) < utcnow() - longest))


def keyed(request: Request, account: str, limits: tuple[Limit, Limit]) -> list[tuple[Limit, str]]:
    """The (limit, value) pairs of a request: the account's, and the address's when known."""
    account_limit, address_limit = limits
    pairs = [(account_limit, account)]
    address = client_address(request)
    if address:
        pairs.append((address_limit, address))
    return pairs


def count_request(db: Session, limit: Limit, value: str) -> None:
    """Counts one request of ``value`` (a personal API token's id) under ``limit`` and commits;
    raises the 429 with ``Retry-After`` when the window already holds ``limit`` of them."""
    window_start, count = count_in_window(db, limit, value)
    db.commit()
    if count > limit.limit:
        seconds = max(1, math.ceil((window_start + limit.window - utcnow()).total_seconds()))
        raise ApiError(
            429, TOO_MANY_REQUESTS, headers={"Retry-After": str(seconds)}, seconds=seconds
        )


def too_many_attempts(seconds: int) -> ApiError:
    """The 429 of an attempt over a limit, with ``Retry-After``."""
    return ApiError(
        429,
        TOO_MANY_ATTEMPTS,
        headers={"Retry-After": str(seconds)},
        minutes=math.ceil(seconds / 60),
    )
