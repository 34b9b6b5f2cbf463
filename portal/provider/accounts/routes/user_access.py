"""A user's access to the services of their companies (issue 53): read by the user and by
whoever may manage them; changed by a company's user managers and provider administrators.

A change takes effect at the user's next request (the scope reads the limit with the
principal, the grants in each statement) and is written to the audit log: who changed whose
access, in which company, to what.
"""

import uuid
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlmodel import Session

from portal.permissions import MANAGE_USERS, user_writes_blocked
from portal.provider.accounts.access import (
    CANNOT_WIDEN,
    GRANTED_SERVICES,
    GrantedFiltersDep,
    access_of,
    actor_limited_in,
    chosen_services,
    granted_to,
    set_access,
)
from portal.provider.accounts.routes.user_writes import WRITES_BLOCKED, _target
from portal.provider.accounts.schemas.access import (
    CompanyAccessIn,
    CompanyAccessOut,
    GrantedServiceOut,
    UserAccessOut,
    access_path,
    granted_service_out,
)
from portal.provider.platform.audit import record
from portal.provider.platform.db import SessionDep, preload
from portal.provider.platform.embeds import company_iri
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, PaginationDep, iri
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import Service, User
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal, Principal

router = ProviderRouter(prefix="/api/users", tags=["users"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"description": "No such user among the reader's companies, or not one of theirs."}
}


def _user(db: Session, principal: Principal, user_id: uuid.UUID) -> User:
    """The user, if the principal sees them (404 otherwise) and is them or may manage them
    (403 otherwise): the users' writes' own check."""
    return _target(db, principal, user_id)


def _readable_companies(principal: Principal, user: User) -> set[uuid.UUID]:
    """The user's companies the principal sees: all of them for staff."""
    return user.company_ids if principal.is_staff else user.company_ids & principal.company_ids


def _company(principal: Principal, user: User, company_id: uuid.UUID) -> uuid.UUID:
    if company_id not in _readable_companies(principal, user):
        raise ApiError(404)
    return company_id


def _answer(db: Session, principal: Principal, user: User) -> UserAccessOut:
    companies = access_of(db, user, _readable_companies(principal, user))
    return UserAccessOut(
        iri=access_path(user.id),
        id=str(user.id),
        user=iri("users", user.id),
        companies=[
            CompanyAccessOut(
                iri=access_path(user.id, access.company.id),
                id=str(access.company.id),
                company=company_iri(access.company.id),
                company_name=access.company.name,
                limited=access.limited,
                service_count=access.service_count,
            )
            for access in companies
        ],
    )


@router.get("/{user_id}/access", response_model=UserAccessOut, responses=_NOT_FOUND)
def get_access(user_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal) -> UserAccessOut:
    """The user's access in each of their companies the reader sees: all services, or only
    those granted (how many)."""
    return _answer(db, principal, _user(db, principal, user_id))


@router.get(
    "/{user_id}/access/{company_id}/services",
    response_model=Collection[GrantedServiceOut],
    responses=_NOT_FOUND,
)
def list_granted_services(
    user_id: uuid.UUID,
    company_id: uuid.UUID,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    filters: GrantedFiltersDep,
    sort: Annotated[Sort, Depends(GRANTED_SERVICES.sorting.read)],
    language: LanguageDep,
) -> Collection[GrantedServiceOut]:
    """The services granted to a limited user in a company, among those the reader sees."""
    user = _user(db, principal, user_id)
    company = _company(principal, user, company_id)
    statement = filters.apply(granted_to(user.id, company)).options(
        *preload(Service.type, Service.endpoint_a, Service.endpoint_b)
    )
    found, total = GRANTED_SERVICES.page(db, principal, statement, sort, page)
    members = [granted_service_out(service, language) for service in found]
    return GRANTED_SERVICES.answer(request, members, total, page)


@router.put(
    "/{user_id}/access/{company_id}",
    response_model=UserAccessOut,
    responses={
        **_NOT_FOUND,
        403: {"description": "The actor may not manage this user, or may not widen this access."},
    },
)
def put_access(
    user_id: uuid.UUID,
    company_id: uuid.UUID,
    body: CompanyAccessIn,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
) -> UserAccessOut:
    """Give the user every service of the company, or limit them to the services chosen. A
    user manager limited in the company gives only services of their own set."""
    impersonator = principal.impersonator
    if user_writes_blocked(impersonator.roles if impersonator else None):
        raise ApiError(403, WRITES_BLOCKED)
    user = _user(db, principal, user_id)
    if not principal.allows(MANAGE_USERS):
        raise ApiError(403)
    company = _company(principal, user, company_id)
    before = {access.company.id: access for access in access_of(db, user, [company])}[company]
    if not body.limited:
        if actor_limited_in(principal, company):
            raise ApiError(403, CANNOT_WIDEN)
        granted = None
    else:
        granted = chosen_services(
            db, principal, company, body.services, body.sites, body.client_reference_prefixes
        )
    set_access(db, user.id, company, granted)
    record(
        db,
        request,
        "user_access_changed",
        actor=principal.user,
        subject=user,
        impersonator=principal.impersonator,
        company=before.company.name,
        company_id=str(company),
        limited_before=before.limited,
        services_before=before.service_count,
        limited=granted is not None,
        services=len(granted or ()),
    )
    db.commit()
    db.expire_all()
    return _answer(db, principal, _user(db, principal, user_id))
