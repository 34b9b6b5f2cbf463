"""What a principal may see of maintenances, shared by the list, the item and the calendar feed:
the maintenances impacting one of their services, and inside one their own contacts and the
provider's (docs/decisions/maintenance-contacts.md); and the list's declaration and filters
(``portal.provider.platform.lists``)."""

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Protocol, TypeVar

from fastapi import Depends, Query
from sqlalchemy import distinct
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import col, func, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import is_staff_email
from portal.provider.platform.hydra import IsoDateTime
from portal.provider.platform.lists import ListOf, S, Sorting
from portal.provider.platform.models import (
    Maintenance,
    MaintenanceClassification,
    MaintenanceService,
    MaintenanceStatus,
    Service,
)
from portal.provider.platform.scoping import service_condition
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.settings import get_settings

T = TypeVar("T")


def _visible_links(principal: Principal) -> ColumnElement[bool]:
    """The links to a service the principal sees: of their companies, and for a user limited to
    some services, to those only (issue 53)."""
    return service_condition(
        principal, MaintenanceService.company_id, MaintenanceService.service_id
    )


def impacted(principal: Principal) -> SelectOfScalar[uuid.UUID]:
    """Ids of the maintenances impacting a service the principal may see: read from the links
    alone, which carry their service's company (docs/decisions/maintenance-scope.md)."""
    statement = select(MaintenanceService.maintenance_id)
    return statement.where(_visible_links(principal))


def impacted_count(principal: Principal) -> SelectOfScalar[int]:
    """How many maintenances impact a service the principal may see: the distinct ids of the
    links, without reading the maintenances (a heavy tenant has thousands)."""
    links = select(func.count(distinct(col(MaintenanceService.maintenance_id))))
    return links.where(_visible_links(principal))


def aware(moment: dt.datetime) -> dt.datetime:
    """A moment given without a time zone is taken as UTC, as every stored moment is."""
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


class Contact(Protocol):
    """A maintenance contact as an entity or as a row of its columns."""

    @property
    def email(self) -> str: ...

    @property
    def company_id(self) -> uuid.UUID | None: ...


AnyContact = TypeVar("AnyContact", bound=Contact)


def visible_contacts(contacts: Sequence[AnyContact], principal: Principal) -> list[AnyContact]:
    """The contacts the principal may see: a customer those of their companies and the
    provider's (an e-mail of the staff mail domain), never another company's."""
    if principal.is_staff:
        return list(contacts)
    domain = get_settings().staff_mail_domain
    return [
        contact
        for contact in contacts
        if contact.company_id in principal.company_ids or is_staff_email(contact.email, domain)
    ]


def impacting_visible_services(
    statement: SelectOfScalar[T], principal: Principal
) -> SelectOfScalar[T]:
    """The maintenances of ``statement`` impacting a service the principal may see: the scope
    of the list and of a maintenance."""
    if principal.is_staff:
        return statement
    return statement.where(col(Maintenance.id).in_(impacted(principal)))


def each_impacting_visible_services(
    statement: SelectOfScalar[T], principal: Principal
) -> SelectOfScalar[T]:
    """As ``impacting_visible_services``, for a period (a calendar's month): each window of the
    period is checked on its own links instead of first gathering every maintenance of the
    customer's services, so the cost follows the period, not the customer's whole history (a
    heavy tenant has thousands). ``OFFSET 0`` keeps PostgreSQL from turning the check back into
    a join (docs/decisions/maintenances-view.md)."""
    if principal.is_staff:
        return statement
    links = impacted(principal).where(col(MaintenanceService.maintenance_id) == col(Maintenance.id))
    return statement.where(links.offset(0).exists())


def visible_maintenances(principal: Principal) -> SelectOfScalar[Maintenance]:
    """The maintenances impacting a service the principal may see."""
    return impacting_visible_services(select(Maintenance), principal)


MAINTENANCES = ListOf(
    Maintenance,
    Sorting(
        {
            "dateStart": col(Maintenance.date_start),
            "dateEnd": col(Maintenance.date_end),
            "dateNotification": col(Maintenance.date_notification),
            "reference": col(Maintenance.reference),
        },
        then=((col(Maintenance.reference), False),),
    ),
    impacting_visible_services,
    items=True,
)


@dataclass(frozen=True)
class MaintenanceFilters:
    # The maintenances impacting the service asked for, among those the reader sees.
    impacting: SelectOfScalar[uuid.UUID] | None
    statuses: tuple[MaintenanceStatus, ...]
    classifications: tuple[MaintenanceClassification, ...]
    start_before: dt.datetime | None
    end_after: dt.datetime | None

    @property
    def period(self) -> bool:
        """``dateStart[before]`` and ``dateEnd[after]`` together give the windows overlapping
        a period, as a calendar shows them; either alone, a period open at one end."""
        return self.start_before is not None or self.end_after is not None

    @property
    def narrowing(self) -> bool:
        """Whether the filters keep fewer maintenances than the reader sees (a period aside)."""
        return self.impacting is not None or bool(self.statuses or self.classifications)

    def apply(self, statement: S) -> S:
        if self.impacting is not None:
            statement = statement.where(col(Maintenance.id).in_(self.impacting))
        if self.statuses:
            statement = statement.where(col(Maintenance.status).in_(self.statuses))
        if self.classifications:
            statement = statement.where(col(Maintenance.classification).in_(self.classifications))
        if self.start_before is not None:
            statement = statement.where(col(Maintenance.date_start) <= aware(self.start_before))
        if self.end_after is not None:
            statement = statement.where(col(Maintenance.date_end) >= aware(self.end_after))
        return statement


async def maintenance_filters(
    principal: CurrentPrincipal,
    service_reference: Annotated[
        str | None,
        Query(alias="service.reference", max_length=100, description="An impacted service."),
    ] = None,
    status: Annotated[list[MaintenanceStatus] | None, Query(alias="status[]")] = None,
    classification: Annotated[
        list[MaintenanceClassification] | None, Query(alias="classification[]")
    ] = None,
    start_before: Annotated[IsoDateTime | None, Query(alias="dateStart[before]")] = None,
    end_after: Annotated[IsoDateTime | None, Query(alias="dateEnd[after]")] = None,
) -> MaintenanceFilters:
    """A service is named by its reference, which another company's reader could guess: it
    is looked for among the links the reader sees (the principal, read once per request)."""
    impacting = None
    if service_reference is not None:
        impacting = (
            impacted(principal)
            .join(Service, col(Service.id) == col(MaintenanceService.service_id))
            .where(Service.reference == service_reference.strip())
        )
    return MaintenanceFilters(
        impacting=impacting,
        statuses=tuple(status or ()),
        classifications=tuple(classification or ()),
        start_before=start_before,
        end_after=end_after,
    )


MaintenanceFiltersDep = Annotated[MaintenanceFilters, Depends(maintenance_filters)]
