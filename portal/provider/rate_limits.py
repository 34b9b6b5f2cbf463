"""Rate limits on login and password reset, per account and per client address (DESIGN 4).

A fixed window per key: the first attempt opens the window, at most ``limit`` attempts count in
it. The counters live in the database, so every worker and instance shares them, and they are
updated with single atomic statements, so concurrent attempts are all counted. Limits and windows
are settings (docs/decisions/rate-limits.md).
"""

import hashlib
import math
from dataclasses import dataclass
from datetime import timedelta

from fastapi import Request
from sqlalchemy import case
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, delete, select, update

from portal.i18n import N_
from portal.provider.errors import ApiError
from portal.provider.models import RateLimitCounter, utcnow
from portal.provider.sessions import client_address
from portal.settings import get_settings

TOO_MANY_ATTEMPTS = N_("Too many attempts. Please try again in {minutes} min.")


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


def retry_after(db: Session, limit: Limit, value: str) -> int | None:
    """Seconds until ``value`` may try again, or None while it is under the limit."""
    row = db.exec(
        select(RateLimitCounter.window_start, RateLimitCounter.count).where(
            RateLimitCounter.id == limit.key(value)
        )
    ).first()
    if row is None:
        return None
    window_start, count = row
    ends = window_start + limit.window
    now = utcnow()
    if now >= ends or count < limit.limit:
        return None
    return max(1, math.ceil((ends - now).total_seconds()))


def hit(db: Session, limit: Limit, value: str) -> None:
    """Count one attempt of ``value`` (the caller commits)."""
    key, now = limit.key(value), utcnow()
    insert = postgresql.insert if db.get_bind().dialect.name == "postgresql" else sqlite.insert
    db.exec(
        insert(RateLimitCounter)
        .values(id=key, window_start=now, count=0)
        .on_conflict_do_nothing(index_elements=["id"])
    )
    expired = col(RateLimitCounter.window_start) <= now - limit.window
    db.exec(
        update(RateLimitCounter)
        .where(col(RateLimitCounter.id) == key)
        .values(
            window_start=case((expired, now), else_=col(RateLimitCounter.window_start)),
            count=case((expired, 1), else_=col(RateLimitCounter.count) + 1),
        )
    )


def clear(db: Session, limit: Limit, value: str) -> None:
    db.exec(delete(RateLimitCounter).where(col(RateLimitCounter.id) == limit.key(value)))


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


def refuse_when_limited(db: Session, pairs: list[tuple[Limit, str]]) -> None:
    """429 with ``Retry-After`` when any of the pairs is over its limit."""
    waits = [wait for limit, value in pairs if (wait := retry_after(db, limit, value))]
    if waits:
        seconds = max(waits)
        raise ApiError(
            429,
            TOO_MANY_ATTEMPTS,
            headers={"Retry-After": str(seconds)},
            minutes=math.ceil(seconds / 60),
        )
