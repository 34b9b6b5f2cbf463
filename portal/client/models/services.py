"""Services (spec 3): their type, endpoints, milestones, attributes and documents."""

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity, ProviderModel


class ServiceType(Entity):
    uuid: str = ""
    key: str = ""
    label: str = ""


class Endpoint(ProviderModel):
    name: str = ""
    number: str | None = None
    street: str | None = None
    postal_code: str | None = None
    city: str | None = None
    country: str | None = None

    @property
    def address(self) -> str:
        """The street line and the town line, as an address is written on a label."""
        street = " ".join(part for part in (self.number, self.street) if part)
        town = " ".join(part for part in (self.postal_code, self.city) if part)
        return ", ".join(part for part in (street, town, self.country) if part)

    @property
    def place(self) -> str:
        """The site and its town, as a list row shows an endpoint."""
        return ", ".join(part for part in (self.name, self.city) if part)


class Milestone(ProviderModel):
    name: str = ""
    label: str = ""
    date: dt.date | None = None
    completed: bool = False


class Order(ProviderModel):
    reference: str | None = None
    # A provider download path, null when the user may not read order forms.
    pdf: str | None = None
    pdf_name: str | None = None


class Document(ProviderModel):
    """A handover or a letter of authorisation: its name and provider download path."""

    name: str = ""
    link: str = ""


class Person(ProviderModel):
    firstname: str = ""
    lastname: str = ""
    email: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()


class Attribute(ProviderModel):
    name: str = ""
    label: str = ""
    value: str = ""
    value_label: str = ""
    group_name: str | None = None
    group_label: str | None = None
    constrained: bool = False


class CompanyName(Entity):
    name: str = ""


class Service(Entity):
    reference: str = ""
    client_references: list[str] = Field(default_factory=list)
    status: str = ""
    status_label: str = ""
    milestones: list[Milestone] = Field(default_factory=list)
    type: ServiceType | None = None
    date_start: dt.date | None = None
    date_termination: dt.date | None = None
    order: Order | None = None
    company: CompanyName | None = None
    endpoint_a: Endpoint | None = None
    endpoint_b: Endpoint | None = None
    delivery_manager: Person | None = None
    handovers: list[Document] = Field(default_factory=list)
    loas: list[Document] = Field(default_factory=list)
    attributes: list[Attribute] = Field(default_factory=list)


class TerminationDocument(Entity):
    filename: str = ""
    download_url: str = ""


class ImportResult(ProviderModel):
    imported: int = 0


ServiceStatus = Literal["under_construction", "active", "under_termination", "terminated"]


class ServiceFilters(Filters):
    """The services list's filters (spec 2), shared by the list, its count and its export."""

    search: Annotated[str, Param("search")] = ""
    statuses: Annotated[list[ServiceStatus], Param("status")] = []
    type_uuids: Annotated[list[str], Param("type.uuid")] = []
