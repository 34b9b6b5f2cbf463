"""Passkeys (issue 52, item 1): the signed-in user registers, lists, renames and deletes their
own; anyone logs in with one without a password (a discoverable credential), or uses one at
the second step of a password login.

Each ceremony has two calls: the first (``POST /api/passkey_registrations``, ``POST
/login/passkey/options``) answers the options for ``navigator.credentials.create`` or ``get``
with a ``challengeToken`` that the portal's backend keeps (the browser never holds it), and the
second brings the authenticator's answer with that token. The registration's options are a
collection of their own, not ``/api/passkeys/options``, which ``/api/passkeys/{id}`` would
shadow for its other methods. Another user's passkey answers 404, as everything of another
user does.
"""

import uuid
from datetime import datetime
from typing import Annotated, Any

from fastapi import Request, Response
from pydantic import Field
from sqlmodel import Session, col, delete

from portal.i18n import N_
from portal.provider.accounts import passkeys
from portal.provider.accounts import second_factor as factors
from portal.provider.accounts.routes.auth import USER_LOCATION
from portal.provider.accounts.routes.second_factor import (
    NO_LOGIN_PENDING,
    finish_login,
    own_session,
)
from portal.provider.platform.audit import record, record_refusal
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import NOT_BLANK, ApiModel
from portal.provider.platform.models import Passkey, RecoveryCode, User
from portal.provider.platform.rate_limits import (
    count_attempt,
    keyed,
    login_limits,
    not_a_failure,
    too_many_attempts,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import PrincipalBeforeTerms

router = ProviderRouter(tags=["passkeys"])

PASSKEY_REFUSED = N_("This passkey could not be registered. Please try again.")
SIGN_IN_REFUSED = N_("This passkey was not accepted. Please try again, or use your password.")
LAST_REQUIRED_FACTOR = N_(
    "Your account requires a second factor: set up another one before removing this passkey."
)

CHALLENGE_TOKEN = Field(
    min_length=1, max_length=100, description="The token of the ceremony's ``options`` answer."
)
CREDENTIAL = Field(
    description="The PublicKeyCredential of ``navigator.credentials``, as its ``toJSON()``."
)


class CeremonyOut(ApiModel):
    challenge_token: str = Field(description="Kept by the caller; brought back with the answer.")
    public_key: dict[str, Any] = Field(
        description="The options for ``navigator.credentials.create`` or ``get``."
    )


class PasskeyOut(ApiModel):
    id: str
    name: str
    created_at: datetime
    last_used_at: datetime | None


class NewPasskeyOut(PasskeyOut):
    recovery_codes: list[str] = Field(
        description="Ten recovery codes when this passkey is the user's first second factor, "
        "shown once; else empty."
    )


class PasskeyName(ApiModel):
    name: Annotated[str, NOT_BLANK] = Field(
        min_length=1, max_length=100, description="The user's name for it, e.g. Work laptop."
    )


class RegistrationIn(PasskeyName):
    challenge_token: str = CHALLENGE_TOKEN
    credential: dict[str, Any] = CREDENTIAL


class AssertionIn(ApiModel):
    challenge_token: str = CHALLENGE_TOKEN
    credential: dict[str, Any] = CREDENTIAL
    remember: bool = Field(
        default=False, description="At a second step: remember this browser for 30 days."
    )


def _out(passkey: Passkey) -> PasskeyOut:
    return PasskeyOut(
        id=str(passkey.id),
        name=passkey.name,
        created_at=passkey.created_at,
        last_used_at=passkey.last_used_at,
    )


def _own_passkey(db: Session, user_id: uuid.UUID, passkey_id: uuid.UUID) -> Passkey:
    passkey = db.get(Passkey, passkey_id)
    if passkey is None or passkey.user_id != user_id:
        raise ApiError(404)
    return passkey


@router.get("/api/passkeys", response_model=list[PasskeyOut])
def list_passkeys(db: SessionDep, principal: PrincipalBeforeTerms) -> list[PasskeyOut]:
    """One's own passkeys, oldest first."""
    user = own_session(principal)
    return [_out(passkey) for passkey in passkeys.user_passkeys(db, user.id)]


@router.post(
    "/api/passkey_registrations",
    response_model=CeremonyOut,
    responses={403: {"description": "Not the user's own session."}},
)
def registration_options(db: SessionDep, principal: PrincipalBeforeTerms) -> CeremonyOut:
    user = db.get_one(User, own_session(principal).id)
    passkeys.purge_expired_challenges(db)
    ceremony = passkeys.start_registration(db, user)
    db.commit()
    return CeremonyOut(challenge_token=ceremony.token, public_key=ceremony.options)


@router.post(
    "/api/passkeys",
    status_code=201,
    response_model=NewPasskeyOut,
    responses={
        403: {"description": "Not the user's own session."},
        422: {"description": "Challenge spent or expired, or the answer refused."},
    },
)
def register(
    body: RegistrationIn, request: Request, db: SessionDep, principal: PrincipalBeforeTerms
) -> NewPasskeyOut:
    user = own_session(principal)
    first = not factors.second_factor_methods(db, user.id)
    passkey = passkeys.finish_registration(
        db, user.id, body.challenge_token, body.credential, body.name
    )
    if passkey is None:
        db.commit()  # the challenge stays spent
        raise ApiError(422, PASSKEY_REFUSED)
    codes = factors.new_recovery_codes(db, user.id) if first else []
    db.flush()
    record(db, request, "passkey_registered", actor=user, subject=user, passkey=passkey.name)
    db.commit()
    return NewPasskeyOut(**_out(passkey).model_dump(), recovery_codes=codes)


@router.patch(
    "/api/passkeys/{passkey_id}",
    response_model=PasskeyOut,
    responses={404: {"description": "No such passkey of the user's."}},
)
def rename(
    passkey_id: uuid.UUID, body: PasskeyName, db: SessionDep, principal: PrincipalBeforeTerms
) -> PasskeyOut:
    passkey = _own_passkey(db, own_session(principal).id, passkey_id)
    passkey.name = body.name
    db.add(passkey)
    db.commit()
    return _out(passkey)


@router.delete(
    "/api/passkeys/{passkey_id}",
    status_code=204,
    response_class=Response,
    responses={
        404: {"description": "No such passkey of the user's."},
        409: {"description": "The user's last second factor, which their account requires."},
    },
)
def remove(
    passkey_id: uuid.UUID, request: Request, db: SessionDep, principal: PrincipalBeforeTerms
) -> Response:
    user = own_session(principal)
    passkey = _own_passkey(db, user.id, passkey_id)
    others = [
        method
        for method in factors.second_factor_methods(db, user.id)
        if method == "totp" or len(passkeys.user_passkeys(db, user.id)) > 1
    ]
    if not others and principal.second_factor_required:
        raise ApiError(409, LAST_REQUIRED_FACTOR)
    db.delete(passkey)
    if not others:
        # No second factor left: its recovery codes go with it.
        db.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user.id))
    record(db, request, "passkey_removed", actor=user, subject=user, passkey=passkey.name)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/login/passkey/options",
    response_model=CeremonyOut,
    responses={401: {"description": "The pending login has expired."}},
)
def sign_in_options(request: Request, db: SessionDep) -> CeremonyOut:
    """Options for a login by any discoverable passkey; with the pending-login cookie of a
    password login, for the second step, offering that user's passkeys."""
    cookie = request.cookies.get(factors.PENDING_COOKIE, "")
    user_id = None
    if cookie:
        pending = factors.pending_login(db, cookie)
        if pending is None:
            raise ApiError(401, NO_LOGIN_PENDING)
        user_id = pending.user_id
    passkeys.purge_expired_challenges(db)
    ceremony = passkeys.start_authentication(db, user_id)
    db.commit()
    return CeremonyOut(challenge_token=ceremony.token, public_key=ceremony.options)


@router.post(
    "/login/passkey",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Logged in.", "headers": USER_LOCATION},
        401: {"description": "Passkey refused, or the pending login has expired."},
        429: {"description": "Too many failures for this account or from this address."},
    },
)
def sign_in(body: AssertionIn, request: Request, db: SessionDep) -> Response:
    """Logs in with a passkey: alone (it is both factors: something held, verified by the
    user's PIN or biometrics), or as the second step of a password login."""
    cookie = request.cookies.get(factors.PENDING_COOKIE, "")
    pending = factors.pending_login(db, cookie) if cookie else None
    if cookie and pending is None:
        raise ApiError(401, NO_LOGIN_PENDING)
    owner = db.get(User, pending.user_id) if pending is not None else None
    # Per address always; per account when a password named it.
    limits = keyed(request, owner.email if owner else "", login_limits())
    limits = limits if owner else limits[1:]
    wait = count_attempt(db, limits)
    if wait is not None:
        record_refusal(db, request, "login_throttled", limits, subject=owner)
        db.commit()
        raise too_many_attempts(wait)
    purpose = passkeys.SECOND_FACTOR if pending is not None else passkeys.SIGN_IN
    passkey = passkeys.authenticate(db, body.challenge_token, body.credential, purpose)
    user = db.get(User, passkey.user_id) if passkey is not None else None
    if passkey is None or user is None or not user.is_active:
        record_refusal(db, request, "passkey_failed", limits, subject=owner or user)
        db.commit()
        raise ApiError(401, SIGN_IN_REFUSED)
    if pending is not None and not factors.end_pending_login(db, pending):
        raise ApiError(401, NO_LOGIN_PENDING)
    not_a_failure(db, limits, clears_account=pending is not None)
    return finish_login(
        db, request, user, "passkey", remember=body.remember, second_factor=pending is not None
    )
