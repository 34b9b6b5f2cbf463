"""Users: the item, the list and accepting the terms (spec sections 2, 3 and 7)."""

import uuid
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import select

from portal.i18n import N_
from portal.provider.accounts.access import limited_users
from portal.provider.accounts.queries import USERS, UserFiltersDep, users_with_companies
from portal.provider.accounts.schemas.users import (
    UserIncludes,
    UserListOut,
    UserOut,
    user_list_out,
    user_out,
)
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import User, utcnow
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, visible_users
from portal.provider.platform.security import (
    CurrentPrincipal,
    PrincipalBeforeTerms,
    require_full_access,
)

router = ProviderRouter(prefix="/api/users", tags=["users"])


@router.get("", response_model=Collection[UserListOut])
def list_users(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: UserIncludes,
    filters: UserFiltersDep,
    sort: Annotated[Sort, Depends(USERS.sorting.read)],
) -> Collection[UserListOut]:
    statement = filters.apply(users_with_companies())
    users, total = USERS.page(db, principal, statement, sort, page)
    # Who is limited to some services (issue 53): one statement for the page.
    limited = limited_users(db, [user.id for user in users])
    members = [user_list_out(user, includes, limited.get(user.id, [])) for user in users]
    return USERS.answer(request, members, total, page)


@router.get("/{user_id}", response_model=UserOut)
def get_user(
    user_id: uuid.UUID, db: SessionDep, principal: PrincipalBeforeTerms, includes: UserIncludes
) -> UserOut:
    """A user; one's own record is readable before accepting the terms and before setting up
    a required second factor."""
    if user_id != principal.user.id:
        require_full_access(principal)
    statement = visible_users(users_with_companies().where(User.id == user_id), principal)
    return user_out(one_or_404(db, statement), includes)


@router.post("/{user_id}/accept_terms", response_model=UserOut)
def accept_terms(
    user_id: uuid.UUID, db: SessionDep, principal: PrincipalBeforeTerms, includes: UserIncludes
) -> UserOut:
    """Accept the terms of use; only for oneself, and not through an impersonation: the
    acceptance is the user's own act."""
    if user_id != principal.user.id:
        one_or_404(db, visible_users(select(User).where(User.id == user_id), principal))
        raise ApiError(403)
    if principal.impersonator is not None:
        raise ApiError(403, N_("Only the user themself can accept the terms of use."))
    user = db.get_one(User, principal.user.id)
    if not user.has_accepted_terms:
        user.has_accepted_terms = True
        user.terms_accepted_at = utcnow()
        db.add(user)
        db.commit()
        db.refresh(user)
    return user_out(user, includes)
