"""Maintenance windows as the API shows them (spec sections 3 and 4: Maintenance)."""

import datetime as dt

from pydantic import Field

from portal.i18n import gettext
from portal.provider.platform.embeds import EndpointOut, endpoint_out, service_iri, type_label
from portal.provider.platform.hydra import ApiModel, Resource, iri
from portal.provider.platform.maintenance_labels import (
    CLASSIFICATION_LABELS,
    STATUS_LABELS,
    TYPE_LABELS,
)
from portal.provider.platform.models import (
    Maintenance,
    MaintenanceContact,
    Service,
)


class TypeLabelOut(ApiModel):
    label: str


class ImpactedServiceOut(Resource):
    type: str = Field(default="Service", alias="@type")
    reference: str
    service_type: TypeLabelOut = Field(alias="type")
    endpoint_a: EndpointOut | None
    endpoint_b: EndpointOut | None


class ContactOut(ApiModel):
    email: str
    name: str | None = None


class MaintenanceOut(Resource):
    type: str = Field(default="Maintenance", alias="@type")
    reference: str
    name: str
    maintenance_type: str = Field(alias="type")
    type_label: str
    classification: str
    classification_label: str
    status: str
    status_label: str
    date_start: dt.datetime
    date_end: dt.datetime
    date_notification: dt.datetime | None


class MaintenanceDetailOut(MaintenanceOut):
    services: list[ImpactedServiceOut] = Field(
        description="The impacted services the reader may see."
    )
    contacts: list[ContactOut]


def _fields(maintenance: Maintenance, language: str) -> dict[str, object]:
    return {
        "iri": iri("maintenances", maintenance.id),
        "id": str(maintenance.id),
        "reference": maintenance.reference,
        "name": maintenance.name,
        "maintenance_type": maintenance.type,
        "type_label": gettext(language, TYPE_LABELS[maintenance.type]),
        "classification": maintenance.classification,
        "classification_label": gettext(
            language, CLASSIFICATION_LABELS[maintenance.classification]
        ),
        "status": maintenance.status,
        "status_label": gettext(language, STATUS_LABELS[maintenance.status]),
        "date_start": maintenance.date_start,
        "date_end": maintenance.date_end,
        "date_notification": maintenance.date_notification,
    }


def maintenance_out(maintenance: Maintenance, language: str) -> MaintenanceOut:
    return MaintenanceOut.model_validate(_fields(maintenance, language))


def impacted_service_out(service: Service, language: str) -> ImpactedServiceOut:
    return ImpactedServiceOut(
        iri=service_iri(service.id),
        id=str(service.id),
        reference=service.reference,
        service_type=TypeLabelOut(label=type_label(service.type, language)),
        endpoint_a=endpoint_out(service.endpoint_a),
        endpoint_b=endpoint_out(service.endpoint_b),
    )


def maintenance_detail_out(
    maintenance: Maintenance,
    services: list[Service],
    contacts: list[MaintenanceContact],
    language: str,
) -> MaintenanceDetailOut:
    """``services`` and ``contacts``: those the reader may see, already chosen."""
    return MaintenanceDetailOut.model_validate(
        {
            **_fields(maintenance, language),
            "services": [impacted_service_out(service, language) for service in services],
            "contacts": [ContactOut(email=contact.email) for contact in contacts],
        }
    )
