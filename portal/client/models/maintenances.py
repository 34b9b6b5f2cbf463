"""Maintenance windows and the services they impact (spec 3)."""

from datetime import datetime
from typing import Annotated

from pydantic import Field

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity, ProviderModel
from portal.client.models.services import Endpoint


class TypeLabel(ProviderModel):
    label: str = ""


class ImpactedService(Entity):
    reference: str = ""
    type: TypeLabel | None = None
    endpoint_a: Endpoint | None = None
    endpoint_b: Endpoint | None = None


class MaintenanceContact(ProviderModel):
    email: str = ""
    name: str | None = None


class Maintenance(Entity):
    reference: str = ""
    name: str = ""
    type: str = ""
    type_label: str = ""
    classification: str = ""
    classification_label: str = ""
    status: str = ""
    status_label: str = ""
    date_start: datetime | None = None
    date_end: datetime | None = None
    date_notification: datetime | None = None
    # Only the full maintenance (``GET /api/maintenances/{id}``) carries these two.
    services: list[ImpactedService] = Field(default_factory=list)
    contacts: list[MaintenanceContact] = Field(default_factory=list)


class MaintenanceFilters(Filters):
    """The maintenance filters: those impacting one service (its reference), or all."""

    service_reference: Annotated[str, Param("service.reference")] = ""


class MaintenancePeriod(Filters):
    """The windows overlapping a period, as a calendar shows it: ending after its start and
    starting before its end."""

    ends_after: Annotated[datetime | None, Param("dateEnd[after]")] = None
    starts_before: Annotated[datetime | None, Param("dateStart[before]")] = None


class CalendarFeed(ProviderModel):
    """The user's private calendar feed: whether one exists; the token only when just made."""

    active: bool = False
    created_at: datetime | None = None
    last_used_at: datetime | None = None
    token: str = ""
    path: str = ""
