"""Users as the API shows them (spec section 3: User)."""

from pydantic import Field

from portal.provider.hydra import Resource, iri
from portal.provider.models import User
from portal.provider.schemas.companies import CompanyRef, company_iri, company_ref


class UserOut(Resource):
    type: str = Field(default="User", alias="@type")
    firstname: str
    lastname: str
    email: str
    phone_number: str | None
    job: str | None
    roles: list[str]
    company: CompanyRef | str = Field(
        description="The main company's IRI, or the company with ``includes[]=company``."
    )
    auxiliary_companies: list[CompanyRef | str]
    has_accepted_terms: bool
    ldap: bool


def user_out(user: User, includes: frozenset[str]) -> UserOut:
    embed = "company" in includes
    return UserOut(
        iri=iri("users", user.id),
        id=str(user.id),
        firstname=user.firstname,
        lastname=user.lastname,
        email=user.email,
        phone_number=user.phone_number,
        job=user.job,
        roles=list(user.roles),
        company=company_ref(user.company) if embed else company_iri(user.company_id),
        auxiliary_companies=[
            company_ref(company) if embed else company_iri(company.id)
            for company in user.auxiliary_companies
        ],
        has_accepted_terms=user.has_accepted_terms,
        ldap=user.ldap,
    )
