"""A user's access to their companies' services, as the API shows and takes it (issue 53)."""

from pydantic import Field

from portal.provider.platform.embeds import EndpointOut, endpoint_out, service_iri, type_label
from portal.provider.platform.hydra import ApiModel, Resource, iri
from portal.provider.platform.models import Service

# Bounds the work of one change; 20 000 services chosen one by one is a long list already.
CHOICES_MAX = 20_000
TEXT_MAX_LENGTH = 200


class CompanyAccessOut(Resource):
    """The user's access in one of their companies: every service, or only those granted."""

    type: str = Field(default="CompanyAccess", alias="@type")
    company: str = Field(description="The company's IRI.")
    company_name: str
    limited: bool = Field(description="Whether the user sees only the services granted.")
    service_count: int = Field(description="How many services are granted (0 when unlimited).")


class UserAccessOut(Resource):
    type: str = Field(default="UserAccess", alias="@type")
    user: str = Field(description="The user's IRI.")
    companies: list[CompanyAccessOut]


class CompanyAccessIn(ApiModel):
    """The access to set in one company. ``limited`` false gives every service of the company;
    true, the union of the services named, of those at the sites named (a service's A- or B-end
    site, by its name) and of those with a client reference starting with a prefix named."""

    limited: bool
    services: list[str] = Field(
        default_factory=list, max_length=CHOICES_MAX, description="Service IRIs."
    )
    sites: list[str] = Field(default_factory=list, max_length=1000)
    client_reference_prefixes: list[str] = Field(default_factory=list, max_length=1000)


class GrantedServiceOut(Resource):
    """A service granted to a limited user, as the access picker lists it."""

    type: str = Field(default="Service", alias="@type")
    reference: str
    client_references: list[str]
    label: str
    endpoint_a: EndpointOut | None
    endpoint_b: EndpointOut | None


def access_path(user_id: object, company_id: object | None = None) -> str:
    path = f"{iri('users', str(user_id))}/access"
    return f"{path}/{company_id}" if company_id is not None else path


def granted_service_out(service: Service, language: str) -> GrantedServiceOut:
    return GrantedServiceOut(
        iri=service_iri(service.id),
        id=str(service.id),
        reference=service.reference,
        client_references=list(service.client_references or []),
        label=type_label(service.type, language),
        endpoint_a=endpoint_out(service.endpoint_a),
        endpoint_b=endpoint_out(service.endpoint_b),
    )
