"""A company's second-factor policy (issue 52, item 3): provider administrators require a
second factor of every user of a company. Such a user's session then opens nothing but the
set-up of a factor until one is set up (``security.Principal.second_factor_due``), as a staff
member's does under SECOND_FACTOR_REQUIRED; impersonation is unaffected."""

import uuid

from fastapi import Request
from pydantic import Field

from portal.permissions import MANAGE_COMPANIES
from portal.provider.accounts.sales_contacts import load_sales_links
from portal.provider.accounts.schemas.companies import CompanyOut, company_out
from portal.provider.platform.audit import record
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.models import Company
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/companies", tags=["companies"])


class SecondFactorPolicy(ApiModel):
    second_factor_required: bool = Field(
        description="Whether every user of the company must set up a second factor."
    )


@router.put(
    "/{company_id}/second_factor_policy",
    response_model=CompanyOut,
    responses={404: {"description": "No such company."}},
)
def set_second_factor_policy(
    company_id: uuid.UUID,
    body: SecondFactorPolicy,
    request: Request,
    db: SessionDep,
    admin: CurrentPrincipal,
    language: LanguageDep,
) -> CompanyOut:
    if not admin.allows(MANAGE_COMPANIES):
        raise ApiError(403)
    company = db.get(Company, company_id)
    if company is None:
        raise ApiError(404)
    if company.second_factor_required != body.second_factor_required:
        company.second_factor_required = body.second_factor_required
        db.add(company)
        record(
            db,
            request,
            "company_second_factor_policy",
            actor=admin.user,
            company=company.name,
            required=body.second_factor_required,
        )
        db.commit()
    return company_out(company, load_sales_links(db, [company.id]), language)
