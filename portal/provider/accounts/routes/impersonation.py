"""Impersonation (spec sections 4 and 7, DESIGN section 4): ``POST /api/impersonation`` with
``{"email": ...}`` starts it, ``POST /api/impersonation/exit`` ends it.

Both are POSTs (issue 18): the spec's ``GET /api?_impersonate=`` let a cross-site link start an
impersonation in a staff member's name; a state-changing request is never a GET, and the
provider's origin check refuses a POST from another site.

Only admins and sales impersonate; nobody impersonates an admin, sales only customers, nobody
themself, and there are no chains. Each switch rotates the session: the old one is closed and a
new cookie names a session of the new current user, which keeps the impersonator and the
absolute lifetime of the session it replaces. Starts, exits and refusals go to the audit log.
"""

from typing import Any, NoReturn

from fastapi import Request, Response
from pydantic import Field
from sqlmodel import Session, select

from portal.i18n import N_
from portal.permissions import IMPERSONATE_ANYONE, may_impersonate
from portal.provider.accounts.schemas.users import UserIncludes, UserOut, user_out
from portal.provider.platform.audit import record
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import ProviderSession, User
from portal.provider.platform.people import Someone
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import Principal, PrincipalBeforeTerms, require_full_access
from portal.provider.platform.sessions import (
    close_session,
    open_session,
    set_session_cookie,
    token_hash,
)

router = ProviderRouter(tags=["impersonation"])

NEEDS_SESSION = N_("Impersonation needs a signed-in session.")
ALREADY_IMPERSONATING = N_("You are already impersonating a user. Leave the impersonation first.")
NOT_YOURSELF = N_("You cannot impersonate yourself.")
NOT_THIS_USER = N_("You are not allowed to impersonate this user.")
NOT_IMPERSONATING = N_("You are not impersonating anyone.")


class ImpersonationStart(ApiModel):
    email: str = Field(max_length=254, description="The e-mail of the user to act as.")


@router.post(
    "/api/impersonation",
    response_model=UserOut,
    responses={
        200: {"description": "The new current user; the response sets a new session cookie."},
        403: {"description": "Refused (see the detail)."},
        404: {"description": "No active user has this e-mail."},
    },
)
def impersonate(
    request: Request,
    response: Response,
    db: SessionDep,
    principal: PrincipalBeforeTerms,
    includes: UserIncludes,
    body: ImpersonationStart,
) -> UserOut:
    _require_session(db, request, principal)
    user = _start(db, request, response, principal, body.email.strip().lower())
    return user_out(user, includes | {"company"})


@router.post(
    "/api/impersonation/exit",
    response_model=UserOut,
    responses={
        200: {"description": "The original user; the response sets a new session cookie."},
        400: {"description": "Not impersonating anyone."},
        403: {"description": "Refused (see the detail)."},
    },
)
def leave_impersonation(
    request: Request,
    response: Response,
    db: SessionDep,
    principal: PrincipalBeforeTerms,
    includes: UserIncludes,
) -> UserOut:
    _require_session(db, request, principal)
    user = _exit(db, request, response, principal)
    return user_out(user, includes | {"company"})


def _require_session(db: Session, request: Request, principal: Principal) -> None:
    if principal.session_id is None:
        _refuse(db, request, principal, 403, NEEDS_SESSION, reason="no_session")


def _start(
    db: Session, request: Request, response: Response, principal: Principal, email: str
) -> User:
    if principal.impersonator is not None:
        _refuse(db, request, principal, 403, ALREADY_IMPERSONATING, reason="chain", target=email)
    require_full_access(principal)
    if not principal.allows(IMPERSONATE_ANYONE):
        _refuse(db, request, principal, 403, None, reason="not_allowed", target=email)
    subject = db.exec(select(User).where(User.email == email)).first()
    if subject is None or not subject.is_active:
        _refuse(db, request, principal, 404, None, reason="unknown_user", target=email)
    if subject.id == principal.user.id:
        _refuse(db, request, principal, 403, NOT_YOURSELF, reason="self", subject=subject)
    if not may_impersonate(principal.user.roles, subject.roles):
        _refuse(db, request, principal, 403, NOT_THIS_USER, reason="target", subject=subject)
    _rotate(db, request, response, principal, user=subject, impersonator=principal.user)
    record(db, request, "impersonation_started", actor=principal.user, subject=subject)
    db.commit()
    return subject


def _exit(db: Session, request: Request, response: Response, principal: Principal) -> User:
    original = principal.impersonator
    if original is None:
        _refuse(db, request, principal, 400, NOT_IMPERSONATING, reason="not_impersonating")
    _rotate(db, request, response, principal, user=original, impersonator=None)
    record(db, request, "impersonation_exited", actor=original, subject=principal.user)
    db.commit()
    return db.get_one(User, original.id)


def _rotate(
    db: Session,
    request: Request,
    response: Response,
    principal: Principal,
    *,
    user: Someone,
    impersonator: Someone | None,
) -> None:
    """Replace the request's session by one of ``user`` that started when the old one did, so
    switching users never extends the absolute lifetime of a login."""
    old = db.get(ProviderSession, principal.session_id)
    started = old.created_at if old else None
    close_session(db, request)
    token = open_session(db, request, user, impersonator)
    db.flush()
    if started is not None:
        db.get_one(ProviderSession, token_hash(token)).created_at = started
    set_session_cookie(response, request, token)


def _refuse(
    db: Session,
    request: Request,
    principal: Principal,
    status: int,
    message: str | None,
    *,
    reason: str,
    subject: User | None = None,
    **detail: Any,
) -> NoReturn:
    # The person behind the request: the impersonator while impersonating.
    actor = principal.impersonator or principal.user
    if principal.impersonator is not None:
        detail["impersonated_email"] = principal.user.email
    record(
        db, request, "impersonation_refused", actor=actor, subject=subject, reason=reason, **detail
    )
    db.commit()
    raise ApiError(status, message)
