"""API tokens: ``pbt_`` and 43 URL-safe characters (256 random bits), stored as SHA-256.

Two kinds share the table and this check. An integration token opens the integration API and
nothing else, and of it only the kinds it was made for (its scopes: ``services``, ``invoices``…);
it writes as its owner, an administrator, and stops working as soon as the owner loses
ROLE_ADMIN. A personal token (issue 51) reads the customer routes of its scopes (``READ_ROUTES``)
as its owner, with the owner's rights of the moment, and stops working as soon as the owner may
no longer make one (``CREATE_API_TOKENS``). Either acts with the roles its owner is honoured in,
as a session does: a staff role stored on an e-mail outside the staff domain counts for nothing
(docs/decisions/staff-roles.md). Either stops when its owner is
deactivated or deleted, when it is revoked or past its expiry. The raw value is shown once, at
creation; only its hash is kept, like sessions'.
"""

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TypeGuard

from sqlmodel import Session, col, select

from portal.permissions import (
    CREATE_API_TOKENS,
    MANAGE_INTEGRATION,
    TOKEN_SCOPES,
    Rule,
    allows,
    rules_for,
)
from portal.provider.platform.models import ApiToken, ApiTokenKind, User, utcnow
from portal.provider.platform.people import Person, Someone
from portal.provider.platform.rate_limits import Limit
from portal.provider.platform.sessions import token_hash
from portal.settings import get_settings

PREFIX = "pbt_"
# ``last_used_at`` is written at most this often, so reads do not turn into writes.
TOUCH_INTERVAL = timedelta(minutes=1)
# A personal token lives at most this long.
LONGEST_PERSONAL = timedelta(days=365)

# What a personal token may read, each scope with the rule its user must hold to choose it: the
# permission table's, which the portal's page reads too.
READ_SCOPES = TOKEN_SCOPES
# The templates of the routes each scope opens, GET only. A route absent from this table
# answers a personal token 403, so a new route opens to tokens on purpose.
READ_ROUTES: dict[str, tuple[str, ...]] = {
    "services": (
        "/api/services",
        "/api/services/{service_id}",
        "/api/services/{service_id}/documents/{document_id}",
        "/api/services/{service_id}/order_pdf",
        "/api/services/export",
        "/api/service_types",
        "/api/service_types/{type_id}",
        "/api/termination_documents",
        "/api/termination_documents/{document_id}",
        "/api/termination_documents/{document_id}/file",
    ),
    "invoices": (
        "/api/invoices",
        "/api/invoices/summary",
        "/api/invoices/{invoice_id}",
        "/api/invoices/{invoice_id}/pdf",
    ),
    "tickets": (
        "/api/tickets",
        "/api/tickets/{ticket_id}",
        "/api/tickets/{ticket_id}/attachments/{attachment_id}",
    ),
    "maintenances": ("/api/maintenances", "/api/maintenances/{maintenance_id}"),
    "monitoring": (
        "/api/sensors",
        "/api/sensors/{sensor_id}/chart_legend",
        "/api/sensors/{sensor_id}/chart/svg",
        "/api/sensors/{sensor_id}/chart/data",
    ),
}
_SCOPE_OF_ROUTE = {route: scope for scope, routes in READ_ROUTES.items() for route in routes}


def read_scope(route: str) -> str | None:
    """The scope a personal token needs to read the route of template ``route``; None when no
    personal token may call it."""
    return _SCOPE_OF_ROUTE.get(route)


def may_read(rules: Iterable[Rule], scope: str) -> bool:
    """Whether a user of ``rules`` reads what the scope opens."""
    return allows(rules, READ_SCOPES[scope])


def token_limit() -> Limit:
    """The requests a personal token may make per minute (API_TOKEN_RATE_LIMIT)."""
    return Limit("token", get_settings().api_token_rate_limit, timedelta(minutes=1))


def new_token_value() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def issue_token(
    db: Session,
    owner: Someone,
    name: str,
    scopes: Iterable[str],
    expires_at: datetime | None = None,
    kind: ApiTokenKind = ApiTokenKind.INTEGRATION,
) -> tuple[ApiToken, str]:
    """A new token for ``owner`` of ``scopes`` (checked by the caller): the integration kinds
    it may write, or for a personal token what it may read; answers the row and the raw value
    (never stored as such). The caller commits."""
    value = new_token_value()
    token = ApiToken(
        kind=kind,
        name=name,
        token_hash=token_hash(value),
        user_id=owner.id,
        scopes=list(dict.fromkeys(scopes)),
        expires_at=expires_at,
    )
    db.add(token)
    return token, value


def _honoured_rule(user: User | None, rule: Rule) -> TypeGuard[User]:
    """An active user whose honoured roles grant ``rule`` (a staff role stored on an e-mail
    outside the staff domain grants nothing); a True answer also tells the type checker
    ``user`` is not None."""
    return user is not None and user.is_active and allows(rules_for(Person.of(user).roles), rule)


def is_admin(user: User | None) -> TypeGuard[User]:
    """An active user the table grants ``manage Integration`` (ROLE_ADMIN, honoured)."""
    return _honoured_rule(user, MANAGE_INTEGRATION)


def may_hold_personal_token(user: User | None) -> TypeGuard[User]:
    """An active user whose honoured roles grant ``CREATE_API_TOKENS``."""
    return _honoured_rule(user, CREATE_API_TOKENS)


def owner_may_hold(owner: User | None, token: ApiToken) -> TypeGuard[User]:
    """Whether ``owner`` may still hold ``token``: an administrator an integration token, a
    user granted ``CREATE_API_TOKENS`` a personal one."""
    if token.kind == ApiTokenKind.PERSONAL:
        return may_hold_personal_token(owner)
    return is_admin(owner)


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
    if token_state(token, now) != "active" or not owner_may_hold(owner, token):
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
