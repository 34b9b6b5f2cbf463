"""Forgotten password and account confirmation (spec sections 2 and 7, DESIGN section 4).

``POST /reset`` answers 204 whether or not the e-mail belongs to an account, after the same work
either way (the same queries, the same rows written), and only then, after the response has
left, issues a 1-hour link and mails it to the account if there is one: the answer's timing says
nothing of the e-mail (issue 18, item 8: a known e-mail answered ~3 ms later).
``POST /reset/{token}`` sets the password with a reset or confirmation token, spends it, and ends
the user's other sessions.
"""

import uuid

from fastapi import BackgroundTasks, Request, Response
from pydantic import Field
from sqlalchemy import Engine
from sqlmodel import Session, select

from portal.i18n import N_
from portal.provider.accounts.passwords import hash_password
from portal.provider.accounts.schemas.users import PASSWORD_MAX_LENGTH
from portal.provider.platform import one_time_tokens
from portal.provider.platform.audit import record, record_refusal
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.feed_links import end_feeds
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.mail import send_password_reset
from portal.provider.platform.models import TokenPurpose, User
from portal.provider.platform.rate_limits import (
    count_attempt,
    keyed,
    reset_limits,
    too_many_attempts,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.sessions import end_user_sessions, request_session_id
from portal.validation import (
    BLANK,
    EMAIL_MAX_LENGTH,
    INVALID_EMAIL,
    WEAK_PASSWORD,
    is_blank,
    is_email,
    is_strong_password,
)

router = ProviderRouter(tags=["authentication"])

INVALID_LINK = N_(
    "This link is invalid or has expired. You can request a new password from the login page."
)
INVALID_DATA = N_("The data sent is not valid.")


class ResetRequest(ApiModel):
    email: str = Field(max_length=EMAIL_MAX_LENGTH)


class NewPassword(ApiModel):
    password: str = Field(max_length=PASSWORD_MAX_LENGTH)


@router.post(
    "/reset",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Sent if the e-mail belongs to an account; the same otherwise."},
        429: {"description": "Too many requests for this e-mail or from this address."},
    },
)
def request_reset(
    body: ResetRequest, request: Request, db: SessionDep, after_response: BackgroundTasks
) -> Response:
    email = body.email.strip().lower()
    if is_blank(email) or not is_email(email):
        message = BLANK if is_blank(email) else INVALID_EMAIL
        raise ApiError(422, INVALID_DATA, violations=[Violation("email", message)])
    # Counted first, so that requests sent together cannot all pass the limit.
    limits = keyed(request, email, reset_limits())
    wait = count_attempt(db, limits)
    if wait is not None:
        record_refusal(db, request, "password_reset_throttled", limits, username=email)
        db.commit()
        raise too_many_attempts(wait)
    user = db.exec(select(User).where(User.email == email)).first()
    # LDAP accounts keep their password in the directory: like unknown ones, they get nothing.
    # Read before the commit, which expires the user (reading after would be one more query).
    mailed = user.id if user is not None and user.is_active and not user.ldap else None
    record(db, request, "password_reset_requested", subject=user, username=email)
    db.commit()
    if mailed is not None:
        after_response.add_task(_mail_reset_link, request.app.state.engine, mailed)
    return Response(status_code=204)


def _mail_reset_link(engine: Engine, user_id: uuid.UUID) -> None:
    """Issues the link and queues its mail, after the response (in its own session)."""
    with Session(engine) as db:
        user = db.get(User, user_id)
        if user is not None and user.is_active and not user.ldap:
            send_password_reset(db, user)
            db.commit()


@router.post(
    "/reset/{token}",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Password set; a confirmation token also confirms the account."},
        400: {"description": "Unknown, used or expired token."},
        422: {"description": "The password does not follow the rule."},
    },
)
def reset_password(token: str, body: NewPassword, request: Request, db: SessionDep) -> Response:
    stored = one_time_tokens.live_token(db, token)
    user = db.get(User, stored.user_id) if stored else None
    if stored is None or user is None or not user.is_active:
        raise ApiError(400, INVALID_LINK)
    if not is_strong_password(body.password):
        message = BLANK if is_blank(body.password) else WEAK_PASSWORD
        raise ApiError(422, INVALID_DATA, violations=[Violation("password", message)])
    user.password_hash = hash_password(body.password)
    db.add(user)
    one_time_tokens.spend_all(db, user.id)
    end_user_sessions(db, user.id, keep=request_session_id(request))
    end_feeds(db, [user], "password", request)
    action = "account_confirmed" if stored.purpose == TokenPurpose.CONFIRM else "password_reset"
    record(db, request, action, actor=user, subject=user)
    db.commit()
    return Response(status_code=204)
