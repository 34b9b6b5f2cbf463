"""Companies (spec section 7): searched by name, or read by ids with their sales contacts."""

import uuid
from typing import Annotated

from fastapi import Depends, Query, Request
from sqlalchemy import func
from sqlmodel import Session, col, or_, select

from portal.permissions import VIEW_STAFF_COMPANIES
from portal.provider.accounts.sales_contacts import SalesTeam, load_sales_links, load_sales_team
from portal.provider.accounts.schemas.companies import CompanyIncludes, CompanyOut, company_out
from portal.provider.platform.db import SessionDep
from portal.provider.platform.hydra import Collection, PaginationDep, collection
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Ordering, ordering, paginate
from portal.provider.platform.models import Company
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, scope_to_companies
from portal.provider.platform.security import CurrentPrincipal
from portal.settings import get_settings

router = ProviderRouter(prefix="/api/companies", tags=["companies"])

company_ordering = ordering(
    {"name": col(Company.name)}, default=[col(Company.name), col(Company.id)]
)


@router.get("", response_model=Collection[CompanyOut])
def list_companies(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: CompanyIncludes,
    language: LanguageDep,
    order: Annotated[Ordering, Depends(company_ordering)],
    name: Annotated[str | None, Query(description="Part of the name, any case.")] = None,
    uuids: Annotated[list[uuid.UUID] | None, Query(alias="uuid[]", description="Ids.")] = None,
    uuid_plain: Annotated[
        list[uuid.UUID] | None, Query(alias="uuid", include_in_schema=False)
    ] = None,
) -> Collection[CompanyOut]:
    statement = scope_to_companies(select(Company), principal, Company.id)
    if name and name.strip():
        statement = statement.where(
            func.lower(Company.name).contains(name.strip().lower(), autoescape=True)
        )
        if not principal.allows(VIEW_STAFF_COMPANIES):
            # Spec 6: the company search hides staff companies from everyone but admins.
            staff = get_settings().staff_company_name.strip().lower()
            lowered = func.lower(func.trim(Company.name))
            statement = statement.where(
                ~or_(
                    lowered.startswith(staff, autoescape=True),
                    lowered.endswith(staff, autoescape=True),
                )
            )
    ids = [*(uuids or ()), *(uuid_plain or ())]
    if ids:
        statement = statement.where(col(Company.id).in_(ids))
    companies, total = paginate(db, statement.order_by(*order), page)
    team = _sales(db, [company.id for company in companies], includes)
    members = [company_out(company, team, language) for company in companies]
    return collection(request, "Company", members, total, page)


@router.get("/{company_id}", response_model=CompanyOut)
def get_company(
    company_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: CompanyIncludes,
    language: LanguageDep,
) -> CompanyOut:
    statement = scope_to_companies(
        select(Company).where(Company.id == company_id), principal, Company.id
    )
    company = one_or_404(db, statement)
    return company_out(company, _sales(db, [company.id], includes), language)


def _sales(db: Session, company_ids: list[uuid.UUID], includes: frozenset[str]) -> SalesTeam:
    """The companies' representatives; with ``includes[]=sales``, their managers and assistants
    too, recursively: a fixed number of queries for the whole page, not one per person."""
    if "sales" in includes:
        return load_sales_team(db, company_ids)
    return load_sales_links(db, company_ids)
