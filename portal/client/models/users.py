"""Users of the portal: customers and provider staff, and what the user form sends."""

from typing import Annotated

from pydantic import Field

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company


class User(Entity):
    firstname: str = ""
    lastname: str = ""
    email: str = ""
    phone_number: str | None = None
    job: str | None = None
    roles: list[str] = Field(default_factory=list)
    company: Company | None = None
    auxiliary_companies: list[Company] = Field(default_factory=list)
    has_accepted_terms: bool = False
    ldap: bool = False
    # The users list only: the companies where the user sees only some services (issue 53).
    limited_companies: list[str] = Field(default_factory=list)

    @property
    def full_name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()

    @property
    def companies(self) -> list[Company]:
        """The main company first, then the auxiliary ones (spec section 3)."""
        return ([self.company] if self.company else []) + self.auxiliary_companies


class UserPayload(ProviderModel):
    """The body of ``POST /api/users`` and ``PATCH /api/users/{id}`` (spec 7): companies by
    uuid, and ``password`` null unless the form shows and fills it."""

    firstname: str
    lastname: str
    email: str
    phone_number: str | None = None
    password: str | None = None
    roles: list[str] = Field(default_factory=list)
    ldap: bool = False
    company: str | None = None
    auxiliary_companies: list[str] = Field(default_factory=list)

    def body(self) -> dict[str, object]:
        return self.model_dump(by_alias=True, mode="json")


class UserFilters(Filters):
    """The users list's filters (spec 2): parts of the name and of the e-mail address."""

    name: Annotated[str, Param("name")] = ""
    email: Annotated[str, Param("email")] = ""


class CompanyAccess(Entity):
    """A user's access in one of their companies: every service, or ``service_count`` chosen."""

    company: str = ""
    company_name: str = ""
    limited: bool = False
    service_count: int = 0


class UserAccess(Entity):
    """What a user sees of each of their companies' services (issue 53)."""

    companies: list[CompanyAccess] = Field(default_factory=list)


class GrantedService(Entity):
    """A service a limited user keeps, as the access picker lists it."""

    reference: str = ""
    client_references: list[str] = Field(default_factory=list)
    label: str = ""
