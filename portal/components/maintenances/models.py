"""A maintenance as the table and the dialog show it: plain values, dates already formatted."""

import math

from pydantic import BaseModel, Field

from portal import routes
from portal.client.models import ImpactedService, Maintenance
from portal.i18n import format_moment


def duration_hours(maintenance: Maintenance) -> int:
    """Whole hours between start and end, absolute and rounded up (spec 2)."""
    if maintenance.date_start is None or maintenance.date_end is None:
        return 0
    seconds = abs((maintenance.date_end - maintenance.date_start).total_seconds())
    return math.ceil(seconds / 3600)


class MaintenanceRow(BaseModel):
    id: str = ""
    reference: str = ""
    name: str = ""
    hours: int = 0
    type_label: str = ""
    classification: str = ""
    classification_label: str = ""
    status: str = ""
    status_label: str = ""
    start: str = ""
    end: str = ""
    notification: str = ""

    @classmethod
    def of(cls, maintenance: Maintenance, language: str, zone: str) -> "MaintenanceRow":
        return cls(
            id=maintenance.id,
            reference=maintenance.reference,
            name=maintenance.name,
            hours=duration_hours(maintenance),
            type_label=maintenance.type_label or maintenance.type,
            classification=maintenance.classification,
            classification_label=maintenance.classification_label or maintenance.classification,
            status=maintenance.status,
            status_label=maintenance.status_label or maintenance.status,
            start=format_moment(maintenance.date_start, language, zone),
            end=format_moment(maintenance.date_end, language, zone),
            notification=format_moment(maintenance.date_notification, language, zone),
        )


class ImpactedRow(BaseModel):
    id: str = ""
    path: str = ""
    reference: str = ""
    type_label: str = ""
    endpoint_a: str = ""
    endpoint_b: str = ""

    @classmethod
    def of(cls, service: ImpactedService) -> "ImpactedRow":
        return cls(
            id=service.id,
            path=routes.service_path(service.id),
            reference=service.reference,
            type_label=service.type.label if service.type else "",
            endpoint_a=service.endpoint_a.place if service.endpoint_a else "",
            endpoint_b=service.endpoint_b.place if service.endpoint_b else "",
        )


class MaintenanceDetail(MaintenanceRow):
    services: list[ImpactedRow] = Field(default_factory=list)
    contacts: list[str] = Field(default_factory=list)

    @classmethod
    def full(cls, maintenance: Maintenance, language: str, zone: str) -> "MaintenanceDetail":
        return cls(
            **MaintenanceRow.of(maintenance, language, zone).model_dump(),
            services=[ImpactedRow.of(service) for service in maintenance.services],
            contacts=[contact.email for contact in maintenance.contacts if contact.email],
        )


class CalendarEvent(BaseModel):
    """A maintenance as the calendar draws it: ISO moments (UTC), the calendar shows them in the
    browser's time zone."""

    id: str = ""
    title: str = ""
    start: str = ""
    end: str = ""
    classification: str = ""
    cancelled: bool = False

    @classmethod
    def of(cls, maintenance: Maintenance) -> "CalendarEvent":
        return cls(
            id=maintenance.id,
            title=f"{maintenance.reference} · {maintenance.name}",
            start=maintenance.date_start.isoformat() if maintenance.date_start else "",
            end=maintenance.date_end.isoformat() if maintenance.date_end else "",
            classification=maintenance.classification,
            cancelled=maintenance.status == "cancelled",
        )
