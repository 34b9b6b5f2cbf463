"""A service as its page shows it: plain values, dates formatted, download URLs built."""

from itertools import groupby

from pydantic import BaseModel, Field

from portal import routes
from portal.client.models import Attribute, Endpoint, Service, TerminationDocument
from portal.connections import backend_url
from portal.i18n import format_day


def download_url(provider_path: str) -> str:
    return backend_url(routes.file_path(provider_path)) if provider_path else ""


class Step(BaseModel):
    label: str = ""
    date: str = ""
    completed: bool = False


class Place(BaseModel):
    name: str = ""
    address: str = ""

    @classmethod
    def of(cls, endpoint: Endpoint | None) -> "Place":
        return cls(name=endpoint.name, address=endpoint.address) if endpoint else cls()


class Download(BaseModel):
    name: str = ""
    url: str = ""


class AttributeValue(BaseModel):
    label: str = ""
    value: str = ""


class AttributeGroup(BaseModel):
    label: str = ""
    values: list[AttributeValue] = Field(default_factory=list)


def attribute_groups(attributes: list[Attribute]) -> list[AttributeGroup]:
    """Attributes by group, in the provider's order of first appearance."""
    order: dict[str, int] = {}
    for attribute in attributes:
        order.setdefault(attribute.group_label or attribute.group_name or "", len(order))

    def group(attribute: Attribute) -> str:
        return attribute.group_label or attribute.group_name or ""

    ordered = sorted(attributes, key=lambda attribute: order[group(attribute)])
    return [
        AttributeGroup(
            label=label,
            values=[
                AttributeValue(label=item.label or item.name, value=item.value_label or item.value)
                for item in items
            ],
        )
        for label, items in groupby(ordered, key=group)
    ]


class ServiceDetail(BaseModel):
    id: str = ""
    reference: str = ""
    client_references: list[str] = Field(default_factory=list)
    status: str = ""
    milestones: list[Step] = Field(default_factory=list)
    type_label: str = ""
    date_start: str = ""
    date_termination: str = ""
    company: str = ""
    endpoint_a: Place = Field(default_factory=Place)
    endpoint_b: Place = Field(default_factory=Place)
    delivery_manager: str = ""
    delivery_manager_email: str = ""
    handovers: list[Download] = Field(default_factory=list)
    loas: list[Download] = Field(default_factory=list)
    order_reference: str = ""
    order_form: Download = Field(default_factory=Download)
    attribute_groups: list[AttributeGroup] = Field(default_factory=list)
    termination_documents: list[Download] = Field(default_factory=list)

    @property
    def is_terminating(self) -> bool:
        return self.status in ("under_termination", "terminated")

    @classmethod
    def of(cls, service: Service, language: str) -> "ServiceDetail":
        order = service.order
        manager = service.delivery_manager
        return cls(
            id=service.id,
            reference=service.reference,
            client_references=list(service.client_references),
            status=service.status,
            milestones=[
                Step(
                    label=m.label or m.name,
                    date=format_day(m.date, language),
                    completed=m.completed,
                )
                for m in service.milestones
            ],
            type_label=service.type.label if service.type else "",
            date_start=format_day(service.date_start, language),
            date_termination=format_day(service.date_termination, language),
            company=service.company.name if service.company else "",
            endpoint_a=Place.of(service.endpoint_a),
            endpoint_b=Place.of(service.endpoint_b),
            delivery_manager=manager.full_name if manager else "",
            delivery_manager_email=manager.email if manager else "",
            handovers=[Download(name=d.name, url=download_url(d.link)) for d in service.handovers],
            loas=[Download(name=d.name, url=download_url(d.link)) for d in service.loas],
            order_reference=(order.reference or "") if order else "",
            order_form=Download(
                name=(order.pdf_name or order.reference or "") if order else "",
                url=download_url(order.pdf or "") if order else "",
            ),
            attribute_groups=attribute_groups(service.attributes),
        )

    def with_terminations(self, documents: list[TerminationDocument]) -> "ServiceDetail":
        downloads = [Download(name=d.filename, url=download_url(d.download_url)) for d in documents]
        return self.model_copy(update={"termination_documents": downloads})
