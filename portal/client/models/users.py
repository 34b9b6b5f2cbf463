"""Users of the portal: customers and provider staff."""

from pydantic import Field

from portal.client.models.base import Entity
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

    @property
    def full_name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()

    @property
    def companies(self) -> list[Company]:
        """The main company first, then the auxiliary ones (spec section 3)."""
        return ([self.company] if self.company else []) + self.auxiliary_companies
