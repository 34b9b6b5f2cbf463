"""Users as the API shows them (spec section 3: User)."""

import uuid
from typing import Annotated

from fastapi import Depends
from pydantic import Field

from portal.provider.platform.embeds import CompanyRef, company_iri, company_ref
from portal.provider.platform.hydra import ApiModel, Resource, embeddable, iri
from portal.provider.platform.models import User
from portal.validation import EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_MAX_LENGTH

PASSWORD_MAX_LENGTH = 1024  # beyond any passphrase; bounds the hashing work


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


class UserListOut(UserOut):
    """A user as the users list shows them: with who is limited to some services (issue 53)."""

    limited_companies: list[str] = Field(
        description=(
            "The companies where the user sees only the services granted to them (the access:"
            " ``/api/users/{id}/access``)."
        ),
    )


# What ``user_out`` embeds instead of an IRI: ``includes[]=company``.
UserIncludes = Annotated[frozenset[str], Depends(embeddable("company"))]


def user_list_out(
    user: User, includes: frozenset[str], limited_companies: list[uuid.UUID]
) -> UserListOut:
    return UserListOut(
        **user_out(user, includes).model_dump(by_alias=True),
        limited_companies=[company_iri(company) for company in sorted(limited_companies)],
    )


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


class UserWrite(ApiModel):
    """The body of ``POST /api/users`` and of ``PATCH`` (merge patch: absent means unchanged,
    and a null ``password`` too). Lengths are checked here; every other rule in
    ``portal.provider.accounts.user_changes``."""

    firstname: str | None = Field(default=None, max_length=NAME_MAX_LENGTH)
    lastname: str | None = Field(default=None, max_length=NAME_MAX_LENGTH)
    email: str | None = Field(default=None, max_length=EMAIL_MAX_LENGTH)
    phone_number: str | None = Field(default=None, max_length=PHONE_MAX_LENGTH)
    password: str | None = Field(default=None, max_length=PASSWORD_MAX_LENGTH)
    roles: list[Annotated[str, Field(max_length=40)]] | None = Field(default=None, max_length=20)
    ldap: bool | None = None
    company: str | None = Field(
        default=None, max_length=200, description="The main company's uuid or IRI."
    )
    auxiliary_companies: list[Annotated[str, Field(max_length=200)]] | None = Field(
        default=None, max_length=100, description="Uuids or IRIs of further companies."
    )
