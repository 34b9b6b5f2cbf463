"""How a resource names what it belongs to, when another domain shows it: its company (every
scoped resource), and a service as a maintenance or a calendar event lists it. Shapes and
IRIs only, no query: each domain loads what it embeds."""

import uuid

from pydantic import Field

from portal.provider.platform.hydra import ApiModel, Resource, iri
from portal.provider.platform.models import Company, Endpoint, ServiceType


class CompanyRef(Resource):
    """A company embedded in another resource (``includes[]=company``)."""

    type: str = Field(default="Company", alias="@type")
    name: str


def company_iri(company_id: uuid.UUID) -> str:
    return iri("companies", company_id)


def company_ref(company: Company) -> CompanyRef:
    return CompanyRef(iri=company_iri(company.id), id=str(company.id), name=company.name)


class EndpointOut(ApiModel):
    name: str
    number: str | None
    street: str | None
    postal_code: str | None
    city: str | None
    country: str | None


def endpoint_out(endpoint: Endpoint | None) -> EndpointOut | None:
    if endpoint is None:
        return None
    return EndpointOut(
        name=endpoint.name,
        number=endpoint.number,
        street=endpoint.street,
        postal_code=endpoint.postal_code,
        city=endpoint.city,
        country=endpoint.country,
    )


def service_iri(service_id: uuid.UUID) -> str:
    return iri("services", service_id)


def type_label(service_type: ServiceType, language: str) -> str:
    return service_type.label_fr if language == "fr" else service_type.label_en
