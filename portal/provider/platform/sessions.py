"""Provider sessions: a random token in an HttpOnly cookie, stored hashed in the database.

A session ends after ``session_idle_minutes`` without a request or ``session_absolute_hours``
after login, whichever comes first. ``last_seen_at`` is written at most once a minute, so reads
do not turn into writes on every request.
"""

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from fastapi import Request, Response
from sqlalchemy import bindparam, exists, select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, delete, or_, update

from portal.forwarded import TrustedProxies, trusted_proxies
from portal.provider.platform.db import CursorRead, planned_once
from portal.provider.platform.models import (
    Company,
    Passkey,
    ProviderSession,
    SecondFactor,
    User,
    UserAccessLimit,
    UserAuxiliaryCompany,
    utcnow,
)
from portal.provider.platform.people import Person, Someone
from portal.settings import get_settings

COOKIE_NAME = "PATCHBAY_PROVIDER_SESSION"
TOUCH_INTERVAL = timedelta(minutes=1)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def client_address(request: Request) -> str | None:
    """The user's address: ``X-Forwarded-For`` counts only when the direct peer is a trusted
    proxy (the portal's backend, or the reverse proxy in front of it), read as
    ``portal.forwarded`` reads it."""
    peer = request.client.host if request.client else None
    forwarded_for = ",".join(request.headers.getlist("x-forwarded-for"))
    return _trusted_proxies().client_address(peer, forwarded_for)


def _trusted_proxies() -> TrustedProxies:
    return trusted_proxies(tuple(get_settings().trusted_proxies))


def _expired(created_at: datetime, last_seen_at: datetime, now: datetime) -> bool:
    settings = get_settings()
    idle = now - last_seen_at > timedelta(minutes=settings.session_idle_minutes)
    too_old = now - created_at > timedelta(hours=settings.session_absolute_hours)
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
    db: Session, request: Request, user: Someone, impersonator: Someone | None = None
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
    """The session of a request with the people behind it, read together as values."""

    id: str
    user: Person
    # The main company and the auxiliary ones: the companies whose data the user sees.
    company_ids: frozenset[uuid.UUID]
    # Those of them where the user sees only the services granted to them (issue 53).
    limited_company_ids: frozenset[uuid.UUID]
    user_is_active: bool
    # Whether the user has a second factor: a confirmed TOTP or a passkey (issue 52).
    second_factor_confirmed: bool
    # Whether the user's company requires one of its users (issue 52, item 3).
    company_requires_second_factor: bool
    impersonator: Person | None


_IMPERSONATOR = aliased(User)
# Every request runs it: built once (building it per request cost more than running it,
# docs/decisions/session-lookup.md) and read as plain columns, not as entities through the ORM,
# which cost a small read a third of its time (docs/decisions/principal-as-values.md), on the
# connection's cursor without SQLAlchemy's execution (docs/decisions/provider-floor.md). One row
# per auxiliary company of the user and company where the user is limited (issue 53).
LIVE_SESSION = CursorRead(
    planned_once(
        select(
            col(ProviderSession.created_at),
            col(ProviderSession.last_seen_at),
            col(User.id),
            col(User.email),
            col(User.roles),
            col(User.has_accepted_terms),
            col(User.is_active),
            col(User.company_id),
            col(SecondFactor.confirmed_at),
            exists().where(col(Passkey.user_id) == User.id).label("has_passkey"),
            col(Company.second_factor_required),
            col(_IMPERSONATOR.id),
            col(_IMPERSONATOR.email),
            col(_IMPERSONATOR.roles),
            col(_IMPERSONATOR.has_accepted_terms),
            # Last: the only columns that differ from row to row.
            col(UserAccessLimit.company_id),
            col(UserAuxiliaryCompany.company_id),
        )
        .join(User, col(User.id) == ProviderSession.user_id)
        .join(Company, col(Company.id) == User.company_id)
        .outerjoin(UserAuxiliaryCompany, col(UserAuxiliaryCompany.user_id) == User.id)
        .outerjoin(UserAccessLimit, col(UserAccessLimit.user_id) == User.id)
        .outerjoin(SecondFactor, col(SecondFactor.user_id) == User.id)
        .outerjoin(_IMPERSONATOR, col(_IMPERSONATOR.id) == ProviderSession.impersonator_id)
        .where(col(ProviderSession.id) == bindparam("session_id"))
    )
)


def current_session(db: Session, request: Request) -> LiveSession | None:
    """The live session of the request's cookie, with its user (and their companies) and the
    impersonator, in one statement; an expired one is deleted on the way."""
    session_id = request_session_id(request)
    if session_id is None:
        return None
    return kept_session(db, session_id, LIVE_SESSION.rows(db, {"session_id": session_id}))


def kept_session(db: Session, session_id: str, rows: list[tuple[Any, ...]]) -> LiveSession | None:
    """The live session of ``rows``, ``LIVE_SESSION``'s wherever they were read: an expired
    session ended, the activity of a live one noted once a minute, committed on ``db``."""
    if not rows:
        return None
    found = _found(session_id, rows)
    if found.expired:
        end_session(db, session_id)
        db.commit()
        return None
    if found.touch_due:
        db.exec(
            update(ProviderSession)
            .where(col(ProviderSession.id) == session_id)
            .values(last_seen_at=found.now)
        )
        db.commit()
    return found.live


def live_session(session_id: str, rows: list[tuple[Any, ...]]) -> LiveSession | None:
    """The live session of ``rows`` when it needs no write (``kept_session`` then), else
    None."""
    found = _found(session_id, rows) if rows else None
    return None if found is None or found.expired or found.touch_due else found.live


@dataclass(frozen=True)
class _Found:
    live: LiveSession
    now: datetime
    expired: bool
    touch_due: bool


def _found(session_id: str, rows: list[tuple[Any, ...]]) -> _Found:
    (
        created_at,
        last_seen_at,
        user_id,
        email,
        roles,
        accepted,
        active,
        company_id,
        confirmed_at,
        has_passkey,
        company_requires,
        impersonator_id,
        impersonator_email,
        impersonator_roles,
        impersonator_accepted,
        _limited_company_id,
        _auxiliary_company_id,
    ) = rows[0]
    now = utcnow()
    auxiliary = {cast(uuid.UUID, row[-1]) for row in rows if row[-1] is not None}
    limited = frozenset(cast(uuid.UUID, row[-2]) for row in rows if row[-2] is not None)
    impersonator = None
    if impersonator_id is not None:
        impersonator = Person.acting(
            impersonator_id, impersonator_email, impersonator_roles, impersonator_accepted
        )
    live = LiveSession(
        id=session_id,
        user=Person.acting(user_id, email, roles, accepted),
        company_ids=frozenset({company_id, *auxiliary}),
        limited_company_ids=limited,
        user_is_active=active,
        second_factor_confirmed=confirmed_at is not None or bool(has_passkey),
        company_requires_second_factor=bool(company_requires),
        impersonator=impersonator,
    )
    return _Found(
        live,
        now,
        expired=_expired(created_at, last_seen_at, now),
        touch_due=now - last_seen_at >= TOUCH_INTERVAL,
    )


def end_session(db: Session, session_id: str) -> None:
    """Delete the session ``session_id``; the caller commits."""
    db.exec(delete(ProviderSession).where(col(ProviderSession.id) == session_id))


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
        end_session(db, token_hash(token))


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
    return peer not in _trusted_proxies()


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
