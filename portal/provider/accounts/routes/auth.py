"""Login and logout (spec section 7): the provider session lives in an HttpOnly cookie.

Logout is a POST (issue 18, item 8; the spec's ``GET logout``): a GET that ends a session can be
sent by any link or image of another site, and the origin check only guards state-changing
methods."""

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field
from sqlmodel import select

from portal.i18n import N_
from portal.provider.accounts import second_factor as factors
from portal.provider.accounts import sso
from portal.provider.accounts.passwords import hash_password, needs_rehash, verify_password
from portal.provider.accounts.routes.notification_preferences import is_time_zone
from portal.provider.platform.audit import record, record_refusal
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel, iri
from portal.provider.platform.language import request_language
from portal.provider.platform.models import User
from portal.provider.platform.rate_limits import (
    count_attempt,
    keyed,
    login_limits,
    not_a_failure,
    purge_expired,
    too_many_attempts,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.sessions import (
    clear_session_cookie,
    close_session,
    open_session,
    purge_expired_sessions,
    set_private_cookie,
    set_session_cookie,
)

router = ProviderRouter(tags=["authentication"])

INVALID_CREDENTIALS = N_("Invalid credentials.")
# The header of a successful login, for the OpenAPI document.
USER_LOCATION = {
    "Location": {
        "description": "The IRI of the signed-in user.",
        "required": True,
        "schema": {"type": "string", "pattern": "^/api/users/"},
    }
}


class LoginBody(ApiModel):
    username: str = Field(min_length=1, max_length=254, description="The user's e-mail.")
    password: str = Field(min_length=1, max_length=1024)
    time_zone: str | None = Field(
        default=None,
        max_length=64,
        description="The browser's IANA time zone: the e-mails' until the user chooses one.",
    )


@router.post(
    "/login",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Logged in.", "headers": USER_LOCATION},
        202: {"description": "Password accepted; ``POST /login/second_factor`` is due."},
        401: {"description": "Invalid credentials (also for an inactive account)."},
        403: {"description": "The user's company allows only its single sign-on."},
        429: {"description": "Too many failures for this account or from this address."},
    },
)
def login(body: LoginBody, request: Request, db: SessionDep) -> Response:
    email = body.username.strip().lower()
    # Every attempt counts first, per e-mail typed and per address, and a success takes its own
    # back: only failures count. Over a limit even the right password waits, so guessing gains
    # nothing.
    limits = keyed(request, email, login_limits())
    wait = count_attempt(db, limits)
    if wait is not None:
        record_refusal(db, request, "login_throttled", limits, username=email)
    # Committed before the slow password check, so that no lock on the counters is held during it.
    db.commit()
    if wait is not None:
        raise too_many_attempts(wait)
    if sso.password_refused(db, email):
        # The company signs its users in through its identity provider only (issue 52).
        record_refusal(db, request, "login_password_refused", limits, username=email)
        db.commit()
        raise ApiError(403, sso.PASSWORD_NOT_ALLOWED, code="sso_required")
    user = db.exec(select(User).where(User.email == email)).first()
    account = user if user is not None and user.is_active else None
    # Verified even without an account, so the timing does not tell whether the e-mail exists.
    password_matches = verify_password(account.password_hash if account else None, body.password)
    if account is None or not password_matches:
        record_refusal(db, request, "login_failed", limits, subject=user, username=email)
        db.commit()
        raise ApiError(401, INVALID_CREDENTIALS)
    methods = factors.second_factor_methods(db, account.id)
    if methods and not factors.is_remembered(
        db, account.id, request.cookies.get(factors.DEVICE_COOKIE, "")
    ):
        # The password is right; the session waits for the second factor (issue 18, item 10):
        # a TOTP code, a passkey (issue 52) or a recovery code.
        not_a_failure(db, limits)
        pending = factors.open_pending_login(db, account.id)
        record(db, request, "login_second_factor_due", actor=account)
        db.commit()
        body_out = {"secondFactorRequired": True, "methods": [*methods, "recovery_code"]}
        due = JSONResponse(body_out, status_code=202)
        seconds = int(factors.PENDING_LOGIN.total_seconds())
        set_private_cookie(due, request, factors.PENDING_COOKIE, pending, seconds)
        return due
    if account.password_hash and needs_rehash(account.password_hash):
        account.password_hash = hash_password(body.password)
    if request.headers.get("accept-language") and not account.language_chosen:
        # The language of the e-mails the user will receive: the one they last used.
        account.language = request_language(request)
    if body.time_zone and is_time_zone(body.time_zone) and not account.time_zone_chosen:
        account.time_zone = body.time_zone
    db.add(account)
    not_a_failure(db, limits, clears_account=True)
    # Rotation: whatever session the browser held is replaced by a new one.
    close_session(db, request)
    purge_expired_sessions(db)
    purge_expired(db)
    token = open_session(db, request, account)
    record(db, request, "login", actor=account, method="password")
    db.commit()
    response = Response(status_code=204, headers={"Location": iri("users", account.id)})
    set_session_cookie(response, request, token)
    return response


@router.post("/logout", status_code=204, response_class=Response)
def logout(request: Request, db: SessionDep) -> Response:
    close_session(db, request)
    db.commit()
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response
