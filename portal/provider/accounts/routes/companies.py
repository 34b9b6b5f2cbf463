"""Companies (spec section 7): searched by name, or read by ids with their sales contacts."""

import uuid
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import Session, select

from portal.permissions import VIEW_STAFF_COMPANIES
from portal.provider.accounts.queries import (
    COMPANIES,
    CompanyFiltersDep,
    without_staff_companies,
)
from portal.provider.accounts.sales_contacts import SalesTeam, load_sales_links, load_sales_team
from portal.provider.accounts.schemas.companies import CompanyIncludes, CompanyOut, company_out
from portal.provider.platform.db import SessionDep
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import Company
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, scope_to_companies
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/companies", tags=["companies"])


@router.get("", response_model=Collection[CompanyOut])
def list_companies(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: CompanyIncludes,
    language: LanguageDep,
    filters: CompanyFiltersDep,
    sort: Annotated[Sort, Depends(COMPANIES.sorting.read)],
) -> Collection[CompanyOut]:
    statement = filters.apply(select(Company))
    if filters.name and not principal.allows(VIEW_STAFF_COMPANIES):
        statement = without_staff_companies(statement)
    companies, total = COMPANIES.page(db, principal, statement, sort, page)
    team = _sales(db, [company.id for company in companies], includes)
    members = [company_out(company, team, language) for company in companies]
    return COMPANIES.answer(request, members, total, page)


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
