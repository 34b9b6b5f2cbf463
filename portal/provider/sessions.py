"""Provider sessions: a random token in an HttpOnly cookie, stored hashed in the database.

A session ends after ``session_idle_minutes`` without a request or ``session_absolute_hours``
after login, whichever comes first. ``last_seen_at`` is written at most once a minute, so reads
do not turn into writes on every request.
"""

import hashlib
import ipaddress
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from fastapi import Request, Response
from sqlalchemy import Result, bindparam
from sqlalchemy.orm import aliased, joinedload
from sqlmodel import Session, col, delete, or_, select

from portal.provider.db import planned_once
from portal.provider.models import ProviderSession, User, utcnow
from portal.settings import get_settings

COOKIE_NAME = "PATCHBAY_PROVIDER_SESSION"
TOUCH_INTERVAL = timedelta(minutes=1)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def client_address(request: Request) -> str | None:
    """The user's address: ``X-Forwarded-For`` counts only when the direct peer is a trusted
    proxy (the portal's backend), whose forwarded address is the last one it appended."""
    peer = request.client.host if request.client else None
    forwarded = request.headers.get("x-forwarded-for", "")
    if peer in get_settings().trusted_proxies and forwarded:
        candidate = forwarded.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            return peer
    return peer


def _expired(session: ProviderSession, now: datetime) -> bool:
    settings = get_settings()
    idle = now - session.last_seen_at > timedelta(minutes=settings.session_idle_minutes)
    too_old = now - session.created_at > timedelta(hours=settings.session_absolute_hours)
    return idle or too_old


def purge_expired_sessions(db: Session) -> None:
    settings = get_settings()
    now = utcnow()
    db.exec(
        delete(ProviderSession).where(
            or_(
                col(ProviderSession.last_seen_at)
                < now - timedelta(minutes=settings.session_idle_minutes),
                col(ProviderSession.created_at)
                < now - timedelta(hours=settings.session_absolute_hours),
            )
        )
    )


def open_session(
    db: Session, request: Request, user: User, impersonator: User | None = None
) -> str:
    """A new session for ``user``; returns the token for the cookie (never stored as such)."""
    token = secrets.token_urlsafe(32)
    db.add(
        ProviderSession(
            id=token_hash(token),
            user_id=user.id,
            impersonator_id=impersonator.id if impersonator else None,
            client_address=client_address(request),
        )
    )
    return token


@dataclass(frozen=True)
class LiveSession:
    """The session of a request with the people behind it, read together."""

    session: ProviderSession
    user: User
    impersonator: User | None


_IMPERSONATOR = aliased(User)
# Every request runs it, so it is built once: building it per request (a fresh alias of User,
# then the cache key SQLAlchemy derives from the whole statement) cost 3.5 ms of CPU more than
# running it (docs/decisions/session-lookup.md).
_LIVE_SESSION = planned_once(
    select(ProviderSession, User, _IMPERSONATOR)
    .join(User, col(User.id) == ProviderSession.user_id)
    .outerjoin(_IMPERSONATOR, col(_IMPERSONATOR.id) == ProviderSession.impersonator_id)
    .where(col(ProviderSession.id) == bindparam("session_id"))
    .options(joinedload(cast(Any, User.auxiliary_companies)))
)


def current_session(db: Session, request: Request) -> LiveSession | None:
    """The live session of the request's cookie, with its user (and their auxiliary companies)
    and the impersonator, in one statement; an expired one is deleted on the way."""
    token = request.cookies.get(COOKIE_NAME)
    if not token:
        return None
    found_rows = db.exec(_LIVE_SESSION, params={"session_id": token_hash(token)})
    # A joined list needs unique(), which the Result behind SQLModel's typed one has.
    result = cast(Result[ProviderSession, User, User | None], found_rows)
    found = result.unique().first()
    if found is None:
        return None
    session, user, acting_staff = found
    now = utcnow()
    if _expired(session, now):
        db.delete(session)
        db.commit()
        return None
    if now - session.last_seen_at >= TOUCH_INTERVAL:
        session.last_seen_at = now
        db.add(session)
        db.commit()
    return LiveSession(session, user, acting_staff)


def end_user_sessions(db: Session, user_id: object, keep: str | None = None) -> None:
    """End every session of the user, as themself or impersonating someone, except ``keep``
    (a session id): after a password change, nobody holding an old session stays in."""
    condition = or_(
        col(ProviderSession.user_id) == user_id, col(ProviderSession.impersonator_id) == user_id
    )
    statement = delete(ProviderSession).where(condition)
    if keep is not None:
        statement = statement.where(col(ProviderSession.id) != keep)
    db.exec(statement)


def request_session_id(request: Request) -> str | None:
    """The id under which the request's session would be stored, if it carries a cookie."""
    token = request.cookies.get(COOKIE_NAME)
    return token_hash(token) if token else None


def close_session(db: Session, request: Request) -> None:
    """Delete the session of the request's cookie, if any (logout, and rotation at login)."""
    token = request.cookies.get(COOKIE_NAME)
    if token:
        db.exec(delete(ProviderSession).where(col(ProviderSession.id) == token_hash(token)))


def _cookie_path(request: Request) -> str:
    return request.scope.get("root_path") or "/"


def _secure_cookie(request: Request) -> bool:
    """Secure outside development, except on the plain-HTTP hop from a trusted portal backend
    on the same machine: a Secure cookie would never be sent back over it."""
    if request.url.scheme == "https":
        return True
    if get_settings().is_development:
        return False
    peer = request.client.host if request.client else None
    return peer not in get_settings().trusted_proxies


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        COOKIE_NAME,
        token,
        path=_cookie_path(request),
        httponly=True,
        samesite="lax",
        secure=_secure_cookie(request),
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        COOKIE_NAME,
        path=_cookie_path(request),
        httponly=True,
        samesite="lax",
        secure=_secure_cookie(request),
    )


def set_private_cookie(
    response: Response, request: Request, name: str, token: str, max_age: int
) -> None:
    """An HttpOnly cookie of the provider's path, like the session's, with a lifetime."""
    response.set_cookie(
        name,
        token,
        max_age=max_age,
        path=_cookie_path(request),
        httponly=True,
        samesite="lax",
        secure=_secure_cookie(request),
    )
