"""API tokens: ``pbt_`` and 43 URL-safe characters (256 random bits), stored as SHA-256.

A token opens the integration API and nothing else, and of it only the kinds it was made for
(its scopes: ``services``, ``invoices``…). It writes as its owner, an administrator: it stops
working as soon as the owner loses ROLE_ADMIN, is deactivated or deleted, and when it is revoked
or past its expiry. The raw value is shown once, at creation; only its hash is kept, like
sessions'.
"""

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TypeGuard

from sqlmodel import Session, col, select

from portal.permissions import MANAGE_INTEGRATION, allows, rules_for
from portal.provider.platform.models import ApiToken, User, utcnow
from portal.provider.platform.people import Someone
from portal.provider.platform.sessions import token_hash

PREFIX = "pbt_"
# ``last_used_at`` is written at most this often, so reads do not turn into writes.
TOUCH_INTERVAL = timedelta(minutes=1)


def new_token_value() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def issue_token(
    db: Session,
    owner: Someone,
    name: str,
    scopes: Iterable[str],
    expires_at: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token for ``owner`` that may write the kinds of ``scopes`` (checked by the caller);
    answers the row and the raw value (never stored as such). The caller commits."""
    value = new_token_value()
    token = ApiToken(
        name=name,
        token_hash=token_hash(value),
        user_id=owner.id,
        scopes=list(dict.fromkeys(scopes)),
        expires_at=expires_at,
    )
    db.add(token)
    return token, value


def is_admin(user: User | None) -> TypeGuard[User]:
    """An active user the table grants ``manage Integration`` (ROLE_ADMIN); a True answer also
    tells the type checker ``user`` is not None."""
    return user is not None and user.is_active and allows(rules_for(user.roles), MANAGE_INTEGRATION)


def token_state(token: ApiToken, now: datetime | None = None) -> str:
    """``active``, ``revoked`` or ``expired``."""
    if token.revoked_at is not None:
        return "revoked"
    if token.expires_at is not None and token.expires_at <= (now or utcnow()):
        return "expired"
    return "active"


def authenticate(db: Session, value: str) -> tuple[ApiToken, User] | None:
    """The live token of ``value`` and its owner, or None; notes the use (throttled)."""
    if not value.startswith(PREFIX):
        return None
    token = db.exec(select(ApiToken).where(ApiToken.token_hash == token_hash(value))).first()
    if token is None:
        return None
    now = utcnow()
    owner = db.get(User, token.user_id)
    if token_state(token, now) != "active" or not is_admin(owner):
        return None
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_INTERVAL:
        token.last_used_at = now
        db.add(token)
        db.commit()
    return token, owner


def list_tokens(db: Session) -> list[ApiToken]:
    return list(db.exec(select(ApiToken).order_by(col(ApiToken.created_at).desc())).all())


def revoke_token(db: Session, token: ApiToken) -> bool:
    """Revoke ``token``; False when it already was. The caller commits."""
    if token.revoked_at is not None:
        return False
    token.revoked_at = utcnow()
    db.add(token)
    return True
