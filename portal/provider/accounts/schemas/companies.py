"""Companies, and the provider's sales contacts who serve them (spec section 3)."""

import uuid
from typing import Annotated

from fastapi import Depends
from pydantic import Field

from portal.provider.accounts.labels import job_label
from portal.provider.accounts.sales_contacts import SalesTeam
from portal.provider.platform.embeds import company_iri
from portal.provider.platform.hydra import Resource, embeddable, iri
from portal.provider.platform.models import Company, User


class SalesContact(Resource):
    """A sales representative with their manager and assistants, recursively; a person met
    again in the same company's tree is given as an IRI, so a loop in the data cannot recurse."""

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
    second_factor_required: bool = Field(
        default=False, description="Whether its users must set up a second factor (issue 52)."
    )


def sales_contact(
    person: User, team: SalesTeam, language: str, seen: set[uuid.UUID], *, top: bool = False
) -> SalesContact | str:
    """``person`` in full the first time a company's tree meets them, as an IRI after that:
    every person is written once per company, and a loop in the data cannot recurse. The
    company's own representatives (``top``) are all written in full in its ``sales`` list and
    referred to by IRI within the trees."""
    person_iri = iri("users", person.id)
    if person.id in seen and not top:
        return person_iri
    seen.add(person.id)
    manager = team.manager_of(person)
    return SalesContact(
        iri=person_iri,
        id=str(person.id),
        job=person.job,
        job_label=job_label(person.job, language),
        firstname=person.firstname,
        lastname=person.lastname,
        full_name=person.full_name,
        office_phone=person.office_phone,
        mobile_phone=person.mobile_phone,
        email=person.email,
        manager=sales_contact(manager, team, language, seen) if manager else None,
        assistants=[
            sales_contact(team.people[assistant], team, language, seen)
            for assistant in team.assistants.get(person.id, ())
        ],
    )


# The sales contacts' managers and assistants, with ``includes[]=sales``.
CompanyIncludes = Annotated[frozenset[str], Depends(embeddable("sales"))]


def company_out(company: Company, team: SalesTeam, language: str) -> CompanyOut:
    """The company with its sales contacts: IRIs when ``team`` holds only the links, in full
    when it holds the people too (``includes[]=sales``, ``load_sales_team``)."""
    representatives = team.sales.get(company.id, ())
    sales: list[SalesContact | str]
    if team.people:
        seen = set(representatives)
        sales = [
            sales_contact(team.people[person], team, language, seen, top=True)
            for person in representatives
        ]
    else:
        sales = [iri("users", person) for person in representatives]
    return CompanyOut(
        iri=company_iri(company.id),
        id=str(company.id),
        name=company.name,
        sales=sales,
        second_factor_required=company.second_factor_required,
    )
