"""Services as the API shows them (spec sections 3 and 4: Service, Endpoint, ServiceType)."""

import datetime as dt
import uuid
from typing import Annotated, Any, NamedTuple

from fastapi import Depends
from pydantic import Field

from portal.i18n import N_, gettext
from portal.provider.platform.embeds import (
    CompanyRef,
    EndpointOut,
    company_iri,
    company_ref,
    endpoint_out,
    service_iri,
    type_label,
)
from portal.provider.platform.hydra import ApiModel, Resource, embeddable, iri
from portal.provider.platform.models import (
    DocumentKind,
    MilestoneName,
    Service,
    ServiceStatus,
    ServiceType,
)
from portal.provider.services.catalogue import (
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_LABELS,
    ATTRIBUTE_NAMES,
    GROUP_LABELS,
    VALUE_LABELS,
)

STATUS_LABELS = {
    ServiceStatus.UNDER_CONSTRUCTION: N_("Under construction"),
    ServiceStatus.ACTIVE: N_("Operational"),
    ServiceStatus.UNDER_TERMINATION: N_("Under termination"),
    ServiceStatus.TERMINATED: N_("Terminated"),
}
MILESTONE_LABELS = {
    MilestoneName.RECEIVED: N_("Order received"),
    MilestoneName.IN_STUDY: N_("In study"),
    MilestoneName.IN_PROGRESS: N_("In progress"),
    MilestoneName.TESTED: N_("Tested"),
    MilestoneName.OPERATIONAL: N_("Operational"),
}


class ServiceTypeOut(Resource):
    type: str = Field(default="ServiceType", alias="@type")
    uuid: str
    key: str
    label: str


class MilestoneOut(ApiModel):
    name: str
    label: str
    date: dt.date | None
    completed: bool


class OrderOut(ApiModel):
    reference: str | None
    pdf: str | None = Field(description="Download path; null without access to Order.pdf.")
    pdf_name: str | None


class PersonOut(ApiModel):
    firstname: str
    lastname: str
    email: str


class DocumentLink(ApiModel):
    name: str
    link: str


class AttributeOut(ApiModel):
    name: str
    label: str
    value: str
    value_label: str
    group_name: str | None
    group_label: str | None
    constrained: bool


class ServiceOut(Resource):
    type: str = Field(default="Service", alias="@type")
    reference: str
    client_references: list[str]
    status: str
    status_label: str
    milestones: list[MilestoneOut]
    service_type: ServiceTypeOut | str = Field(
        alias="type", description="The type's IRI, or the type with ``includes[]=type``."
    )
    date_start: dt.date | None
    date_termination: dt.date | None
    order: OrderOut | None
    company: CompanyRef | str = Field(
        description="The company's IRI, or the company with ``includes[]=company``."
    )
    endpoint_a: EndpointOut | None
    endpoint_b: EndpointOut | None
    delivery_manager: PersonOut | None
    handovers: list[DocumentLink]
    loas: list[DocumentLink]
    attributes: list[AttributeOut]


def status_label(status: ServiceStatus, language: str) -> str:
    return gettext(language, STATUS_LABELS[status])


def service_type_out(service_type: ServiceType, language: str) -> ServiceTypeOut:
    return ServiceTypeOut(
        iri=iri("service_types", service_type.id),
        id=str(service_type.id),
        uuid=str(service_type.id),
        key=service_type.key,
        label=type_label(service_type, language),
    )


def order_pdf_path(service_id: uuid.UUID) -> str:
    return f"{service_iri(service_id)}/order_pdf"


def document_path(service_id: uuid.UUID, document_id: uuid.UUID) -> str:
    return f"{service_iri(service_id)}/documents/{document_id}"


def _order(service: Service, may_read_order_pdf: bool) -> OrderOut | None:
    if service.order_reference is None and service.order_pdf_path is None:
        return None
    readable = may_read_order_pdf and service.order_pdf_path is not None
    return OrderOut(
        reference=service.order_reference,
        pdf=order_pdf_path(service.id) if readable else None,
        pdf_name=service.order_pdf_name,
    )


class ServiceLists(NamedTuple):
    """A service's lists as the database assembles them (``portal.provider.platform.json_lists``):
    one dict per row, with JSON's values, in no particular order."""

    milestones: list[dict[str, Any]]
    attributes: list[dict[str, Any]]
    documents: list[dict[str, Any]]


def _milestones(rows: list[dict[str, Any]], language: str) -> list[MilestoneOut]:
    return [
        MilestoneOut(
            name=row["name"],
            label=gettext(language, MILESTONE_LABELS[MilestoneName(row["name"])]),
            date=row["date"],
            completed=row["completed"],
        )
        for row in sorted(rows, key=lambda row: row["position"])
    ]


def _attribute_out(row: dict[str, Any], language: str) -> AttributeOut:
    name, value, group = row["name"], row["value"], row["group_name"]
    label = ATTRIBUTE_LABELS.get(name)
    value_label = VALUE_LABELS.get(value)
    group_label = GROUP_LABELS.get(group or "")
    return AttributeOut(
        name=name,
        label=gettext(language, label) if label else name,
        value=value,
        value_label=gettext(language, value_label) if value_label else value,
        group_name=group,
        group_label=gettext(language, group_label) if group_label else group,
        constrained=row["constrained"],
    )


def _attribute_position(row: dict[str, Any]) -> tuple[int, int, str]:
    """Group by group, in the catalogue's order; names the catalogue lacks come last."""
    group, name = row["group_name"] or "", row["name"]
    return (
        ATTRIBUTE_GROUPS.index(group) if group in ATTRIBUTE_GROUPS else len(ATTRIBUTE_GROUPS),
        ATTRIBUTE_NAMES.index(name) if name in ATTRIBUTE_NAMES else len(ATTRIBUTE_NAMES),
        name,
    )


def _documents(
    service_id: uuid.UUID, rows: list[dict[str, Any]], kind: DocumentKind
) -> list[DocumentLink]:
    documents = sorted((row for row in rows if row["kind"] == kind), key=lambda row: row["name"])
    return [
        DocumentLink(name=row["name"], link=document_path(service_id, uuid.UUID(row["id"])))
        for row in documents
    ]


# What ``service_out`` embeds instead of an IRI (the order is always embedded: the spec names
# it among the includes, so asking for it is no error).
ServiceIncludes = Annotated[frozenset[str], Depends(embeddable("order", "company", "type"))]


def service_out(
    service: Service,
    lists: ServiceLists,
    includes: frozenset[str],
    language: str,
    *,
    may_read_order_pdf: bool,
) -> ServiceOut:
    """A service with its ``lists``; relations it embeds (``includes``) must have been loaded
    with it, as must its endpoints and delivery manager."""
    manager = service.delivery_manager
    return ServiceOut(
        iri=service_iri(service.id),
        id=str(service.id),
        reference=service.reference,
        client_references=list(service.client_references),
        status=service.status,
        status_label=status_label(service.status, language),
        milestones=_milestones(lists.milestones, language),
        service_type=service_type_out(service.type, language)
        if "type" in includes
        else iri("service_types", service.type_id),
        date_start=service.date_start,
        date_termination=service.date_termination,
        order=_order(service, may_read_order_pdf),
        company=company_ref(service.company)
        if "company" in includes
        else company_iri(service.company_id),
        endpoint_a=endpoint_out(service.endpoint_a),
        endpoint_b=endpoint_out(service.endpoint_b),
        delivery_manager=PersonOut(
            firstname=manager.firstname, lastname=manager.lastname, email=manager.email
        )
        if manager
        else None,
        handovers=_documents(service.id, lists.documents, DocumentKind.HANDOVER),
        loas=_documents(service.id, lists.documents, DocumentKind.LOA),
        attributes=[
            _attribute_out(row, language)
            for row in sorted(lists.attributes, key=_attribute_position)
        ],
    )
