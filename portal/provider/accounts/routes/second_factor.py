"""TOTP second factor (issue 18, item 10): enrolment by the signed-in user, the second step of a
login, and the reset of a user's factor by an administrator (audited).

``POST /login`` answers 202 ``{"second_factor_required": true}`` with a 5-minute pending-login
cookie instead of a session when the account has a confirmed factor and the browser is not a
remembered device; ``POST /login/second_factor`` then takes a TOTP code or a recovery code,
rate-limited with the password's limits, and opens the session.
"""

import uuid
from typing import Any

from fastapi import Request, Response
from pydantic import Field
from sqlmodel import Session, col, func, select

from portal.i18n import N_
from portal.provider.accounts import second_factor as factors
from portal.provider.accounts.routes.auth import USER_LOCATION
from portal.provider.platform.audit import record, record_refusal
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel, iri
from portal.provider.platform.models import Passkey, RecoveryCode, User
from portal.provider.platform.people import Person
from portal.provider.platform.rate_limits import (
    count_attempt,
    keyed,
    login_limits,
    not_a_failure,
    too_many_attempts,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import (
    AdminPrincipal,
    Principal,
    PrincipalBeforeTerms,
    require_accepted_terms,
)
from portal.provider.platform.sessions import (
    close_session,
    open_session,
    purge_expired_sessions,
    set_private_cookie,
    set_session_cookie,
)

router = ProviderRouter(tags=["second factor"])

INVALID_CODE = N_("Invalid code.")
NO_LOGIN_PENDING = N_("Your login has expired. Please enter your password again.")
ALREADY_ENROLLED = N_("A second factor is already set up for this account.")
NOT_STARTED = N_("Start the set-up of the second factor first.")
OWN_SESSION_ONLY = N_("Only the signed-in user may change their own second factor.")
NO_FACTOR = N_("Set up a second factor first: recovery codes come with it.")


class SecondFactorStatus(ApiModel):
    enrolled: bool = Field(description="Whether an authenticator app (TOTP) is set up.")
    passkeys: int = Field(default=0, description="How many passkeys the user has (issue 52).")
    recovery_codes_left: int
    required: bool = Field(
        description="Whether this user must set one up before anything else (a staff role, or "
        "a company whose policy requires it)."
    )


class Enrolment(ApiModel):
    secret: str = Field(description="The RFC 6238 secret (base32), for manual entry.")
    otpauth_uri: str
    qr_svg: str = Field(description="The otpauth URI as a QR code (SVG).")


class CodeBody(ApiModel):
    code: str = Field(min_length=1, max_length=32)


class RecoveryCodes(ApiModel):
    recovery_codes: list[str]


class SecondStep(ApiModel):
    code: str = Field(min_length=1, max_length=32, description="A TOTP or a recovery code.")
    remember: bool = Field(default=False, description="Remember this browser for 30 days.")


def own_session(principal: Principal) -> Person:
    # The set-up is what a staff session without its required factor may still reach.
    require_accepted_terms(principal)
    if principal.session_id is None or principal.impersonator is not None:
        raise ApiError(403, OWN_SESSION_ONLY)
    return principal.user


def _codes_left(db: Session, user_id: uuid.UUID) -> int:
    return db.exec(
        select(func.count())
        .select_from(RecoveryCode)
        .where(RecoveryCode.user_id == user_id, col(RecoveryCode.used_at).is_(None))
    ).one()


@router.get("/api/second_factor", response_model=SecondFactorStatus)
def status(db: SessionDep, principal: PrincipalBeforeTerms) -> SecondFactorStatus:
    require_accepted_terms(principal)
    user = principal.user
    methods = factors.second_factor_methods(db, user.id)
    passkeys = db.exec(
        select(func.count()).select_from(Passkey).where(Passkey.user_id == user.id)
    ).one()
    return SecondFactorStatus(
        enrolled="totp" in methods,
        passkeys=passkeys,
        recovery_codes_left=_codes_left(db, user.id) if methods else 0,
        required=principal.second_factor_required,
    )


@router.post(
    "/api/second_factor/recovery_codes",
    response_model=RecoveryCodes,
    responses={
        403: {"description": "Not the user's own session."},
        409: {"description": "No second factor is set up."},
    },
)
def regenerate_recovery_codes(
    request: Request, db: SessionDep, principal: PrincipalBeforeTerms
) -> RecoveryCodes:
    """Ten new recovery codes, shown once; the old ones stop working (issue 52, item 2)."""
    user = own_session(principal)
    if not factors.second_factor_methods(db, user.id):
        raise ApiError(409, NO_FACTOR)
    codes = factors.new_recovery_codes(db, user.id)
    record(db, request, "recovery_codes_regenerated", actor=user, subject=user)
    db.commit()
    return RecoveryCodes(recovery_codes=codes)


@router.post(
    "/api/second_factor",
    response_model=Enrolment,
    responses={
        403: {"description": "Not the user's own session."},
        409: {"description": "Set up."},
    },
)
def start(db: SessionDep, principal: PrincipalBeforeTerms) -> Enrolment:
    user = own_session(principal)
    if factors.confirmed_factor(db, user.id) is not None:
        raise ApiError(409, ALREADY_ENROLLED)
    secret, uri, svg = factors.start_enrolment(db, user)
    db.commit()
    return Enrolment(secret=secret, otpauth_uri=uri, qr_svg=svg)


@router.post(
    "/api/second_factor/confirm",
    response_model=RecoveryCodes,
    responses={409: {"description": "Not started, or set up."}, 422: {"description": "Bad code."}},
)
def confirm(
    body: CodeBody, request: Request, db: SessionDep, principal: PrincipalBeforeTerms
) -> RecoveryCodes:
    user = own_session(principal)
    factor = db.get(factors.SecondFactor, user.id)
    if factor is None or factor.confirmed_at is not None:
        raise ApiError(409, NOT_STARTED if factor is None else ALREADY_ENROLLED)
    if not factors.confirm(db, factor, body.code):
        raise ApiError(422, INVALID_CODE)
    codes = factors.new_recovery_codes(db, user.id)
    record(db, request, "second_factor_enrolled", actor=user, subject=user)
    db.commit()
    return RecoveryCodes(recovery_codes=codes)


@router.delete(
    "/api/users/{user_id}/second_factor",
    status_code=204,
    response_class=Response,
    responses={404: {"description": "No such user, or no second factor."}},
)
def reset(user_id: uuid.UUID, request: Request, db: SessionDep, admin: AdminPrincipal) -> Response:
    """An administrator removes a user's second factor (a lost phone); audited."""
    user = db.get(User, user_id)
    if user is None or not factors.reset(db, user_id):
        raise ApiError(404)
    record(db, request, "second_factor_reset", actor=admin.user, subject=user)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/login/second_factor",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Logged in.", "headers": USER_LOCATION},
        401: {"description": "Invalid code, or no login pending."},
        429: {"description": "Too many failures for this account or from this address."},
    },
)
def second_step(body: SecondStep, request: Request, db: SessionDep) -> Response:
    pending = factors.pending_login(db, request.cookies.get(factors.PENDING_COOKIE, ""))
    user = db.get(User, pending.user_id) if pending is not None else None
    if pending is None or user is None or not user.is_active:
        raise ApiError(401, NO_LOGIN_PENDING)
    limits = keyed(request, user.email, login_limits())
    wait = count_attempt(db, limits)
    if wait is not None:
        record_refusal(db, request, "login_throttled", limits, subject=user, username=user.email)
        db.commit()
        raise too_many_attempts(wait)
    factor = factors.confirmed_factor(db, user.id)
    method = ""
    if factor is not None and factors.accept_code(db, factor, body.code):
        method = "totp"
    elif factor is not None and factors.spend_recovery_code(db, user.id, body.code):
        method = "recovery_code"
    if not method:
        record_refusal(
            db, request, "second_factor_failed", limits, subject=user, username=user.email
        )
        db.commit()
        raise ApiError(401, INVALID_CODE)
    if not factors.end_pending_login(db, pending):
        raise ApiError(401, NO_LOGIN_PENDING)
    not_a_failure(db, limits, clears_account=True)
    return finish_login(db, request, user, method, remember=body.remember, second_factor=True)


def finish_login(
    db: Session,
    request: Request,
    user: User,
    method: str,
    *,
    remember: bool = False,
    second_factor: bool = False,
) -> Response:
    """The session of a completed login, whatever its method: the browser's old session
    replaced (rotation), the method in the audit log (issue 52, item 4), a remembered device
    when asked at a second step."""
    close_session(db, request)
    purge_expired_sessions(db)
    token = open_session(db, request, user)
    detail: dict[str, Any] = {"second_factor": method} if second_factor else {}
    record(db, request, "login", actor=user, method=method, **detail)
    response = Response(status_code=204, headers={"Location": iri("users", user.id)})
    if remember:
        device = factors.remember_device(db, user.id)
        seconds = int(factors.REMEMBERED_DEVICE.total_seconds())
        set_private_cookie(response, request, factors.DEVICE_COOKIE, device, seconds)
    db.commit()
    set_session_cookie(response, request, token)
    response.delete_cookie(factors.PENDING_COOKIE, path=request.scope.get("root_path") or "/")
    return response
