"""Companies, and the provider's sales contacts who serve them (spec section 3)."""

import uuid

from pydantic import Field

from portal.provider.hydra import Resource, iri
from portal.provider.labels import job_label
from portal.provider.models import Company, User


class CompanyRef(Resource):
    """A company embedded in another resource (``includes[]=company``)."""

    type: str = Field(default="Company", alias="@type")
    name: str


class SalesContact(Resource):
    """A sales representative with their manager and assistants, recursively; a person met
    again further down the chain is given as an IRI, so a loop in the data cannot recurse."""

    type: str = Field(default="User", alias="@type")
    job: str | None
    job_label: str | None
    firstname: str
    lastname: str
    full_name: str
    office_phone: str | None
    mobile_phone: str | None
    email: str
    manager: "SalesContact | str | None"
    assistants: list["SalesContact | str"]


class CompanyOut(Resource):
    type: str = Field(default="Company", alias="@type")
    name: str
    sales: list[SalesContact | str] = Field(
        description="IRIs of the sales contacts, or the contacts with ``includes[]=sales``."
    )


def company_iri(company_id: uuid.UUID) -> str:
    return iri("companies", company_id)


def company_ref(company: Company) -> CompanyRef:
    return CompanyRef(iri=company_iri(company.id), id=str(company.id), name=company.name)


def sales_contact(
    user: User, language: str, seen: frozenset[uuid.UUID] = frozenset()
) -> SalesContact | str:
    user_iri = iri("users", user.id)
    if user.id in seen:
        return user_iri
    seen = seen | {user.id}
    return SalesContact(
        iri=user_iri,
        id=str(user.id),
        job=user.job,
        job_label=job_label(user.job, language),
        firstname=user.firstname,
        lastname=user.lastname,
        full_name=user.full_name,
        office_phone=user.office_phone,
        mobile_phone=user.mobile_phone,
        email=user.email,
        manager=sales_contact(user.manager, language, seen) if user.manager else None,
        assistants=[sales_contact(assistant, language, seen) for assistant in user.assistants],
    )


def company_out(company: Company, includes: frozenset[str], language: str) -> CompanyOut:
    if "sales" in includes:
        sales = [sales_contact(user, language) for user in company.sales]
    else:
        sales = [iri("users", user.id) for user in company.sales]
    return CompanyOut(
        iri=company_iri(company.id), id=str(company.id), name=company.name, sales=sales
    )
