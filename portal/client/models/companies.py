"""Companies and the provider's sales contacts who serve them."""

from typing import Self

from pydantic import Field, model_validator

from portal.client.models.base import Entity


class SalesContact(Entity):
    """A provider employee serving a company, with their manager and assistants (recursive)."""

    job: str | None = None
    firstname: str = ""
    lastname: str = ""
    full_name: str = ""
    office_phone: str | None = None
    mobile_phone: str | None = None
    email: str = ""
    manager: "SalesContact | None" = None
    assistants: list["SalesContact"] = Field(default_factory=list)

    @model_validator(mode="after")
    def _full_name_from_parts(self) -> Self:
        # The provider may send fullName, or only the two parts (as it does for users).
        if not self.full_name:
            self.full_name = f"{self.firstname} {self.lastname}".strip()
        return self


class Company(Entity):
    name: str | None = None
    sales: list[SalesContact] = Field(default_factory=list)
    # Issue 52: its users must set up a second factor.
    second_factor_required: bool = False
