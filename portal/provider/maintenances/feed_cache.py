"""The calendar feed's validator and the built feeds kept between changes (issue 55, item 5).

A calendar program polls its feed every hour or so; most polls find it unchanged. The validator
(``ETag`` and ``Last-Modified``) comes from what changes the feed, read by one small aggregate
over the user's visible maintenances (how many are in the feed's window, the last change of one
of them, the last one that left the window), the link's user, language and scope, and the time of
the last change to the services, companies and service types the events describe
(``changed_at``, raised after any commit that changed one of them). Equal validators mean the same
bytes: ``build_feed`` writes nothing else. The body built for a validator is kept per user and
language, in Redis when ``REDIS_URL`` is set (shared by every worker), else in the worker's memory;
an entry whose validator no longer matches is built again and replaced
(docs/decisions/calendar-feed-cache.md).
"""

import hashlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import redis
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col

from portal.provider.maintenances.calendar_feed import HISTORY
from portal.provider.maintenances.queries import aware, visible_maintenances
from portal.provider.platform import maintnote
from portal.provider.platform.models import (
    CalendarFeed,
    Company,
    Maintenance,
    MaintenanceContact,
    MaintenanceService,
    Service,
    ServiceType,
    UserAccessLimit,
    UserServiceGrant,
    utcnow,
)
from portal.provider.platform.security import Principal
from portal.settings import get_settings

logger = logging.getLogger(__name__)

# Raised when what ``build_feed`` writes changes for the same data, so no feed cached by an
# earlier version is served.
FORMAT = "2"
# A cached feed is dropped after this long unread (Redis), and the worker's memory keeps at most
# this many bytes of feeds, the least recently read dropped first.
CACHE_SECONDS = 24 * 3600
MEMORY_BYTES = 64 * 1024 * 1024
_PREFIX = "patchbay:feed:"
_CHANGED_KEY = _PREFIX + "changed"
# What the events describe besides the maintenances' own columns (whose changes raise
# ``maintenances.updated_at``): a change to one of these raises ``changed_at``.
# What a feed's events say, and which services a limited user's feed lists (issue 53).
_DESCRIBED = (
    Service,
    Company,
    ServiceType,
    Maintenance,
    MaintenanceService,
    MaintenanceContact,
    UserAccessLimit,
    UserServiceGrant,
)
_DESCRIBED_TABLES = frozenset(model.__tablename__ for model in _DESCRIBED)
_DIRTY = "patchbay_feed_described_changed"


@dataclass(frozen=True)
class Validator:
    etag: str
    last_modified: datetime

    def matches(self, if_none_match: str | None, if_modified_since: str | None) -> bool:
        """Whether a conditional request's copy is this one (RFC 9110 13.1: ``If-None-Match``
        when sent, else ``If-Modified-Since``)."""
        if if_none_match is not None:
            tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
            return "*" in tags or self.etag in tags
        if if_modified_since is None:
            return False
        try:
            since = parse_http_date(if_modified_since)
        except ValueError:
            return False
        return self.last_modified.replace(microsecond=0) <= since


def parse_http_date(value: str) -> datetime:
    return datetime.strptime(value.strip(), "%a, %d %b %Y %H:%M:%S GMT").replace(tzinfo=UTC)


def http_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%a, %d %b %Y %H:%M:%S GMT")


def validator(db: Session, feed: CalendarFeed, principal: Principal) -> Validator:
    """The feed's validator, from one aggregate over the principal's visible maintenances."""
    now = utcnow()
    since = now - HISTORY
    date_end, updated_at = col(Maintenance.date_end), col(Maintenance.updated_at)
    in_window = date_end >= since
    statement = visible_maintenances(principal).with_only_columns(
        sa.func.count(sa.case((in_window, 1))),
        sa.func.max(sa.case((in_window, updated_at))),
        sa.func.max(sa.case((date_end < since, date_end))),
    )
    count, last_change, last_gone = db.execute(statement).one()
    changed_at = _store().changed_at()
    moments = [datetime.fromtimestamp(changed_at, UTC), feed.created_at]
    if last_change is not None:
        moments.append(last_change)
    if last_gone is not None:
        # The moment the last maintenance to leave the window left it.
        moments.append(aware(last_gone) + HISTORY)
    settings = get_settings()
    parts = [
        FORMAT,
        str(feed.id),
        str(principal.user.id),
        feed.language,
        ",".join(sorted(str(company) for company in principal.company_ids)),
        ",".join(sorted(rule.key for rule in principal.rules)),
        str(count),
        last_change.isoformat() if last_change is not None else "",
        last_gone.isoformat() if last_gone is not None else "",
        repr(changed_at),
        settings.company_name,
        maintnote.provider_domain(),
    ]
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]
    return Validator(f'"{digest}"', max(aware(moment) for moment in moments))


def cached(feed: CalendarFeed, found: Validator) -> bytes | None:
    """The body built for this validator, if it is still kept."""
    return _store().get(_key(feed), found.etag)


def keep(feed: CalendarFeed, found: Validator, body: bytes) -> None:
    _store().put(_key(feed), found.etag, body)


def _key(feed: CalendarFeed) -> str:
    return f"{_PREFIX}{feed.user_id}:{feed.language}"


class _MemoryStore:
    """A worker's own store: without Redis, each worker keeps what it built."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self._bytes = 0
        self._changed_at = time.time()

    def changed_at(self) -> float:
        return self._changed_at

    def changed(self) -> None:
        self._changed_at = time.time()

    def get(self, key: str, etag: str) -> bytes | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != etag:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: str, etag: str, body: bytes) -> None:
        if len(body) > MEMORY_BYTES:
            return
        with self._lock:
            previous = self._entries.pop(key, None)
            if previous is not None:
                self._bytes -= len(previous[1])
            self._entries[key] = (etag, body)
            self._bytes += len(body)
            while self._bytes > MEMORY_BYTES:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= len(dropped)


class _RedisStore:
    """Shared by every worker and instance: an entry is the ETag, a line break and the body."""

    def __init__(self, url: str) -> None:
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def _read(self, key: str) -> bytes | None:
        value = self._redis.get(key)
        return value if isinstance(value, bytes) else None

    def changed_at(self) -> float:
        value = self._read(_CHANGED_KEY)
        if value is None:
            # First read: from now on, a change is later than this.
            self._redis.set(_CHANGED_KEY, repr(time.time()), nx=True)
            value = self._read(_CHANGED_KEY)
        return float(value or 0)

    def changed(self) -> None:
        self._redis.set(_CHANGED_KEY, repr(time.time()))

    def get(self, key: str, etag: str) -> bytes | None:
        """The body kept for ``etag``; None when there is none or Redis cannot be read (the
        feed is then built)."""
        try:
            value = self._read(key)
        except redis.RedisError:
            logger.exception("calendar feeds: a cached feed could not be read from Redis")
            return None
        if value is None:
            return None
        stored, _, body = value.partition(b"\n")
        return body if stored.decode() == etag else None

    def put(self, key: str, etag: str, body: bytes) -> None:
        try:
            self._redis.set(key, etag.encode() + b"\n" + body, ex=CACHE_SECONDS)
        except redis.RedisError:
            logger.exception("calendar feeds: a built feed could not be kept in Redis")


@lru_cache
def _stores(url: str) -> _MemoryStore | _RedisStore:
    return _RedisStore(url) if url else _MemoryStore()


def _store() -> _MemoryStore | _RedisStore:
    return _stores(get_settings().redis_url)


def _flushed(db: OrmSession, _context: Any) -> None:
    touched = (*db.new, *db.deleted, *(item for item in db.dirty if db.is_modified(item)))
    if any(isinstance(item, _DESCRIBED) for item in touched):
        db.info[_DIRTY] = True


def _executed(state: Any) -> None:
    """A bulk INSERT, UPDATE or DELETE of a described table, which no flush sees."""
    if state.is_insert or state.is_update or state.is_delete:
        table = getattr(state.statement, "table", None)
        if getattr(table, "name", None) in _DESCRIBED_TABLES:
            state.session.info[_DIRTY] = True


def _committed(db: OrmSession) -> None:
    if not db.info.pop(_DIRTY, False):
        return
    try:
        _store().changed()
    except redis.RedisError:
        # The feeds then wait for their own changes or the cache's expiry: say so loudly.
        logger.exception("calendar feeds: the change time could not be written to Redis")


def _rolled_back(db: OrmSession) -> None:
    db.info.pop(_DIRTY, None)


event.listen(OrmSession, "after_flush", _flushed)
event.listen(OrmSession, "do_orm_execute", _executed)
event.listen(OrmSession, "after_commit", _committed)
event.listen(OrmSession, "after_rollback", _rolled_back)
