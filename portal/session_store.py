"""Server-side portal sessions: the browser holds only an opaque token in an HttpOnly cookie.

A session keeps what the browser must never see: the user's provider cookie jar. Stored in Redis
when ``REDIS_URL`` is set (several workers and instances share it), else in a SQLite file under
``data/`` that only the portal's user may read (0600). Idle and absolute timeouts are enforced on
every read.

The store holds no usable token (issue 18, item 8): a session is found by the SHA-256 of its
token, and its value, the provider cookie included, is sealed with a key derived from the token;
a claim ticket is found by its hash and holds the session token sealed with the ticket. Whoever
reads the store (a backup, another local user, its keys in a Redis dump) can neither log in with
what they find nor call the provider. A tab's Reflex state still holds its token (the binding to
the cookie compares them): Reflex's state files are 0600, and Redis' own access control guards
its copy. See docs/decisions/session-store-secrets.md.
"""

import asyncio
import base64
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Protocol

from redis import asyncio as redis_asyncio

from portal.settings import Settings

COOKIE_NAME = "patchbay_session"
# A browser remembered at the second step of a login (issue 18, item 10): its cookie holds a
# token of ours; the provider's device cookie stays here, sealed with it.
DEVICE_COOKIE_NAME = "patchbay_device"
REMEMBERED_DEVICE_SECONDS = 30 * 24 * 3600
# Every key the portal writes to Redis starts so; Reflex's own state keys do not.
REDIS_KEY_PREFIX = "patchbay:"
CLAIM_TICKET_SECONDS = 60


@dataclass
class PortalSession:
    user_id: str
    provider_cookies: dict[str, str]
    # The staff user behind an impersonation (spec 4): kept here because the impersonated
    # customer may not read that user from the provider after a reload.
    impersonator_id: str = ""
    impersonator_email: str = ""
    impersonator_name: str = ""
    impersonator_roles: list[str] = field(default_factory=list)
    # SECOND_FACTOR_REQUIRED applies and no factor is set up yet: only its set-up page opens.
    second_factor_due: bool = False
    created_at: float = field(default_factory=time.time)
    last_seen_at: float = field(default_factory=time.time)


def cookie_value(cookie_header: str, name: str) -> str:
    """The value of cookie ``name`` in a ``Cookie`` header, or ""."""
    cookie = SimpleCookie()
    try:
        cookie.load(cookie_header or "")
    except CookieError:
        return ""
    morsel = cookie.get(name)
    return morsel.value if morsel else ""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_NONCE = 16
_TAG = 32


def _keys(secret: str) -> tuple[bytes, bytes]:
    """Two keys of a token or ticket, independent of its stored digest (SHA-256)."""
    material = hashlib.blake2b(secret.encode(), digest_size=64, person=b"patchbay-seal").digest()
    return material[:32], material[32:]


def seal(secret: str, plaintext: str) -> str:
    """Encrypt-then-MAC with stdlib primitives: a SHAKE-256 keystream of (key, random nonce) and
    an HMAC-SHA-256 tag. Only the holder of ``secret`` (the browser's cookie or ticket) opens it."""
    stream_key, mac_key = _keys(secret)
    nonce = os.urandom(_NONCE)
    data = plaintext.encode()
    pad = hashlib.shake_256(stream_key + nonce).digest(len(data))
    body = nonce + bytes(a ^ b for a, b in zip(data, pad, strict=True))
    tag = hmac.digest(mac_key, body, "sha256")
    return base64.b64encode(body + tag).decode()


def unseal(secret: str, sealed: str) -> str | None:
    """The plaintext of ``seal(secret, ...)``, or None if the secret or the data do not match."""
    stream_key, mac_key = _keys(secret)
    try:
        raw = base64.b64decode(sealed, validate=True)
    except ValueError:
        return None
    body, tag = raw[:-_TAG], raw[-_TAG:]
    if len(body) < _NONCE or not hmac.compare_digest(tag, hmac.digest(mac_key, body, "sha256")):
        return None
    nonce, data = body[:_NONCE], body[_NONCE:]
    pad = hashlib.shake_256(stream_key + nonce).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, pad, strict=True)).decode()


def private_file(path: Path) -> None:
    """Creates ``path`` if missing, readable and writable by this user only (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    path.chmod(0o600)


class SessionBackend(Protocol):
    async def put(self, key: str, value: str, ttl_seconds: int) -> None: ...
    async def get(self, key: str) -> str | None: ...
    async def pop(self, key: str) -> str | None: ...
    async def delete(self, key: str) -> None: ...
    async def aclose(self) -> None: ...


class SqliteBackend:
    def __init__(self, path: Path) -> None:
        # Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the mode of
        # the database file, so none of the three is readable by another local user.
        private_file(path)
        for companion in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if companion.exists():
                companion.chmod(0o600)
        self._path = path
        with self._connect() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS portal_session "
                "(key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at REAL NOT NULL)"
            )

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self._path, timeout=5, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        return connection

    def _run(self, sql: str, *params: object) -> list[tuple]:
        with self._connect() as connection:
            return connection.execute(sql, params).fetchall()

    async def put(self, key: str, value: str, ttl_seconds: int) -> None:
        await asyncio.to_thread(
            self._run,
            "INSERT OR REPLACE INTO portal_session VALUES (?, ?, ?)",
            key,
            value,
            time.time() + ttl_seconds,
        )

    async def get(self, key: str) -> str | None:
        rows = await asyncio.to_thread(
            self._run,
            "SELECT value FROM portal_session WHERE key = ? AND expires_at > ?",
            key,
            time.time(),
        )
        return rows[0][0] if rows else None

    async def pop(self, key: str) -> str | None:
        rows = await asyncio.to_thread(
            self._run,
            "DELETE FROM portal_session WHERE key = ? AND expires_at > ? RETURNING value",
            key,
            time.time(),
        )
        return rows[0][0] if rows else None

    async def delete(self, key: str) -> None:
        await asyncio.to_thread(self._run, "DELETE FROM portal_session WHERE key = ?", key)

    async def aclose(self) -> None:
        """Nothing: each call opens and closes its own connection."""


class RedisBackend:
    def __init__(self, url: str) -> None:
        self._redis = redis_asyncio.Redis.from_url(url, decode_responses=True)

    async def put(self, key: str, value: str, ttl_seconds: int) -> None:
        await self._redis.set(f"{REDIS_KEY_PREFIX}{key}", value, ex=ttl_seconds)

    async def get(self, key: str) -> str | None:
        return await self._redis.get(f"{REDIS_KEY_PREFIX}{key}")

    async def pop(self, key: str) -> str | None:
        return await self._redis.getdel(f"{REDIS_KEY_PREFIX}{key}")

    async def delete(self, key: str) -> None:
        await self._redis.delete(f"{REDIS_KEY_PREFIX}{key}")

    async def aclose(self) -> None:
        await self._redis.aclose()


class SessionStore:
    def __init__(self, settings: Settings, backend: SessionBackend | None = None) -> None:
        self._idle = settings.session_idle_minutes * 60
        self._absolute = settings.session_absolute_hours * 3600
        self._backend = backend or (
            RedisBackend(settings.redis_url)
            if settings.redis_url
            else SqliteBackend(settings.portal_session_db)
        )

    async def aclose(self) -> None:
        """Closes the store's connections, for a process that used it for a while only."""
        await self._backend.aclose()

    async def create(self, session: PortalSession) -> str:
        """Stores a new session and returns its token, which only the cookie will carry."""
        token = secrets.token_urlsafe(32)
        await self.save(token, session)
        return token

    async def save(self, token: str, session: PortalSession) -> None:
        await self._backend.put(
            f"session:{_digest(token)}", seal(token, json.dumps(asdict(session))), self._idle
        )

    async def load(self, token: str) -> PortalSession | None:
        """The live session of a token, touched; None when unknown, idle or too old."""
        if not token:
            return None
        stored = await self._backend.get(f"session:{_digest(token)}")
        raw = unseal(token, stored) if stored is not None else None
        if raw is None:
            return None
        session = PortalSession(**json.loads(raw))
        now = time.time()
        if now - session.created_at > self._absolute or now - session.last_seen_at > self._idle:
            await self.destroy(token)
            return None
        if now - session.last_seen_at > 60:
            session.last_seen_at = now
            await self.save(token, session)
        return session

    async def destroy(self, token: str) -> None:
        await self._backend.delete(f"session:{_digest(token)}")

    async def issue_claim_ticket(self, token: str, device: str = "") -> str:
        """A one-time ticket that lets the browser exchange it for the session cookie, and for
        the device cookie of a browser remembered at this login."""
        ticket = secrets.token_urlsafe(32)
        claim = json.dumps(asdict(Claim(token, device)))
        await self._backend.put(
            f"claim:{_digest(ticket)}", seal(ticket, claim), CLAIM_TICKET_SECONDS
        )
        return ticket

    async def redeem_claim_ticket(self, ticket: str) -> "Claim | None":
        stored = await self._backend.pop(f"claim:{_digest(ticket)}")
        raw = unseal(ticket, stored) if stored is not None else None
        return Claim(**json.loads(raw)) if raw is not None else None

    async def remember_device(self, provider_cookies: dict[str, str]) -> str:
        """The token of a new device cookie for the browser; what the provider set to remember
        the device stays here, sealed with it."""
        token = secrets.token_urlsafe(32)
        sealed = seal(token, json.dumps(provider_cookies))
        await self._backend.put(f"device:{_digest(token)}", sealed, REMEMBERED_DEVICE_SECONDS)
        return token

    async def remembered_device(self, token: str) -> dict[str, str]:
        """The provider cookies of a remembered browser's device token; {} when unknown."""
        stored = await self._backend.get(f"device:{_digest(token)}") if token else None
        raw = unseal(token, stored) if stored is not None else None
        return json.loads(raw) if raw is not None else {}


@dataclass(frozen=True)
class Claim:
    token: str
    device: str = ""
