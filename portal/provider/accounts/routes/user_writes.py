"""Creating, updating and deleting users (spec sections 6 and 7, issue 4).

Who may write whom is decided here, what they may write in
``portal.provider.accounts.user_changes``. A user outside the actor's companies is not found
(404); one the actor sees but may not manage is forbidden (403), as is every write while a sales
representative impersonates.
"""

import uuid
from typing import Any

from fastapi import Request, Response
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from portal.i18n import N_
from portal.permissions import MANAGE_USERS, may_manage, user_writes_blocked
from portal.provider.accounts.passwords import hash_password
from portal.provider.accounts.schemas.users import UserIncludes, UserOut, UserWrite, user_out
from portal.provider.accounts.user_changes import (
    EMAIL_TAKEN,
    INVALID_DATA,
    CheckedWrite,
    check_write,
)
from portal.provider.platform.audit import record
from portal.provider.platform.db import SessionDep, preload
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.feed_links import end_feeds, feed_end_reason
from portal.provider.platform.hydra import iri
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.mail import send_account_confirmation
from portal.provider.platform.models import Company, User
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, visible_users
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.platform.sessions import clear_session_cookie
from portal.validation import BLANK

router = ProviderRouter(prefix="/api/users", tags=["users"])

WRITES_BLOCKED = N_(
    "Users cannot be created, changed or deleted while a sales representative impersonates a user."
)
# What the OpenAPI document says of these routes besides what it says of every write.
_FORBIDDEN: dict[int | str, dict[str, Any]] = {
    403: {"description": "The actor may not write this user, or a sales user impersonates."}
}
_REFUSALS: dict[int | str, dict[str, Any]] = {
    **_FORBIDDEN,
    404: {"description": "No such user among the actor's companies."},
}
_CREATED: dict[int | str, dict[str, Any]] = {
    201: {
        "description": "Created; the confirmation link is mailed to the user.",
        "headers": {
            "Location": {
                "description": "The new user's IRI.",
                "required": True,
                "schema": {"type": "string", "pattern": "^/api/users/"},
            }
        },
    },
    **_FORBIDDEN,
}


def _refuse_blocked_writes(principal: Principal) -> None:
    impersonator = principal.impersonator
    if user_writes_blocked(impersonator.roles if impersonator else None):
        raise ApiError(403, WRITES_BLOCKED)


def _target(db: Session, principal: Principal, user_id: uuid.UUID) -> User:
    """The user to write: 404 outside the actor's companies, 403 when the actor may not manage
    them (oneself is always one's own to edit; what may change is checked later)."""
    statement = select(User).where(User.id == user_id).options(*preload(User.auxiliary_companies))
    target = one_or_404(db, visible_users(statement, principal))
    if target.id != principal.user.id and not may_manage(
        principal.rules,
        principal.user.roles,
        principal.company_ids,
        target.roles,
        target.company_ids,
    ):
        raise ApiError(403)
    return target


def _apply(db: Session, user: User, checked: CheckedWrite) -> None:
    values = checked.values
    user.firstname = values.firstname
    user.lastname = values.lastname
    user.email = values.email
    user.phone_number = values.phone_number
    user.roles = list(values.roles)
    user.ldap = values.ldap
    if values.company is not None:
        user.company_id = values.company
    user.auxiliary_companies = [
        db.get_one(Company, company) for company in values.auxiliary_companies
    ]
    if checked.password:
        user.password_hash = hash_password(checked.password)


def _audit(
    db: Session, request: Request, principal: Principal, action: str, user: User, **detail: Any
) -> None:
    record(
        db,
        request,
        action,
        actor=principal.user,
        subject=user,
        impersonator=principal.impersonator,
        **detail,
    )


def _commit(db: Session) -> None:
    """Commit; two requests racing for one e-mail end in 422, not 500."""
    try:
        db.commit()
    except IntegrityError as error:
        db.rollback()
        violation = Violation("email", EMAIL_TAKEN)
        raise ApiError(422, INVALID_DATA, violations=[violation]) from error


@router.post("", status_code=201, response_model=UserOut, responses=_CREATED)
def create_user(
    body: UserWrite,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: UserIncludes,
    language: LanguageDep,
) -> UserOut:
    """Create a user and mail them the link to confirm their account (7 days)."""
    _refuse_blocked_writes(principal)
    if not principal.allows(MANAGE_USERS):
        raise ApiError(403)
    checked = check_write(db, principal, body, None)
    company = checked.values.company
    if company is None:  # check_write refuses a blank company on creation; never trust it blindly
        raise ApiError(422, INVALID_DATA, violations=[Violation("company", BLANK)])
    user = User(
        firstname=checked.values.firstname,
        lastname=checked.values.lastname,
        email=checked.values.email,
        company_id=company,
        language=language,
    )
    _apply(db, user, checked)
    db.add(user)
    db.flush()
    send_account_confirmation(db, user, language)
    _audit(db, request, principal, "user_created", user, fields=sorted(checked.changed))
    _commit(db)
    db.refresh(user)
    response.headers["Location"] = iri("users", user.id)
    return user_out(user, includes)


@router.patch("/{user_id}", response_model=UserOut, responses=_REFUSALS)
def update_user(
    user_id: uuid.UUID,
    body: UserWrite,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: UserIncludes,
) -> UserOut:
    """Merge-patch a user: absent fields, and a null password, stay as they are."""
    _refuse_blocked_writes(principal)
    user = _target(db, principal, user_id)
    checked = check_write(db, principal, body, user)
    _apply(db, user, checked)
    db.add(user)
    if reason := feed_end_reason(checked.changed):
        end_feeds(db, [user], reason, request, actor=principal.user)
    _audit(db, request, principal, "user_updated", user, fields=sorted(checked.changed))
    _commit(db)
    db.refresh(user)
    return user_out(user, includes)


@router.delete("/{user_id}", status_code=204, response_class=Response, responses=_REFUSALS)
def delete_user(
    user_id: uuid.UUID, request: Request, db: SessionDep, principal: CurrentPrincipal
) -> Response:
    """Delete a user, their sessions and tokens with them; one may delete oneself."""
    _refuse_blocked_writes(principal)
    user = _target(db, principal, user_id)
    _audit(db, request, principal, "user_deleted", user)
    db.delete(user)
    db.commit()
    response = Response(status_code=204)
    if user.id == principal.user.id:
        clear_session_cookie(response, request)
    return response
