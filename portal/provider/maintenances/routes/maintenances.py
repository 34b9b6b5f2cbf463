"""Maintenance windows (spec 2, 3 and 7): the list, also read as ``items``/``totalItems``, and
one maintenance with its impacted services and contacts.

Customers see the maintenances impacting at least one service of their companies, and inside one
only their own services and contacts and the provider's contacts; staff see everything.
"""

import uuid
from typing import Annotated, cast

from fastapi import Depends, Query, Request
from sqlmodel import col, select

from portal.provider.maintenances.maintenance_scope import (
    aware,
    impacted,
    impacted_count,
    visible_contacts,
    visible_maintenances,
)
from portal.provider.maintenances.schemas.maintenances import (
    MaintenanceDetailOut,
    MaintenanceOut,
    maintenance_detail_out,
    maintenance_out,
)
from portal.provider.platform.db import SessionDep, preload
from portal.provider.platform.hydra import IsoDateTime, ItemsCollection, PaginationDep, collection
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Ordering, ordering, paginate, paginate_in_one_statement
from portal.provider.platform.models import (
    Maintenance,
    MaintenanceClassification,
    MaintenanceService,
    MaintenanceStatus,
    Service,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, through_visible_services
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/maintenances", tags=["maintenances"])

maintenance_ordering = ordering(
    {
        "dateStart": col(Maintenance.date_start),
        "dateEnd": col(Maintenance.date_end),
        "dateNotification": col(Maintenance.date_notification),
        "reference": col(Maintenance.reference),
    },
    default=[col(Maintenance.reference)],
)


@router.get("", response_model=ItemsCollection[MaintenanceOut])
def list_maintenances(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    language: LanguageDep,
    order: Annotated[Ordering, Depends(maintenance_ordering)],
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
) -> ItemsCollection[MaintenanceOut]:
    """``dateStart[before]`` and ``dateEnd[after]`` together give the windows overlapping a
    period, as a calendar shows them."""
    period = start_before is not None or end_after is not None
    statement = visible_maintenances(principal, per_row=period)
    if service_reference is not None:
        impacting = (
            impacted(principal)
            .join(Service, col(Service.id) == col(MaintenanceService.service_id))
            .where(Service.reference == service_reference.strip())
        )
        statement = statement.where(col(Maintenance.id).in_(impacting))
    if status:
        statement = statement.where(col(Maintenance.status).in_(status))
    if classification:
        statement = statement.where(col(Maintenance.classification).in_(classification))
    if start_before is not None:
        statement = statement.where(col(Maintenance.date_start) <= aware(start_before))
    if end_after is not None:
        statement = statement.where(col(Maintenance.date_end) >= aware(end_after))
    statement = statement.order_by(*order)
    if period:
        maintenances, total = paginate_in_one_statement(db, statement, page)
    else:
        filtered = service_reference is not None or status or classification
        count = None if filtered or principal.is_staff else impacted_count(principal)
        maintenances, total = paginate(db, statement, page, count)
    members = [maintenance_out(maintenance, language) for maintenance in maintenances]
    result = collection(request, "Maintenance", members, total, page, with_items=True)
    return cast(ItemsCollection[MaintenanceOut], result)


@router.get("/{maintenance_id}", response_model=MaintenanceDetailOut)
def get_maintenance(
    maintenance_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal, language: LanguageDep
) -> MaintenanceDetailOut:
    statement = visible_maintenances(principal).where(Maintenance.id == maintenance_id)
    maintenance = one_or_404(db, statement.options(*preload(Maintenance.contacts)))
    services = through_visible_services(
        select(Service)
        .join(MaintenanceService, col(MaintenanceService.service_id) == col(Service.id))
        .where(MaintenanceService.maintenance_id == maintenance.id),
        principal,
    ).options(*preload(Service.type, Service.endpoint_a, Service.endpoint_b))
    impacted = list(db.exec(services.order_by(col(Service.reference))))
    contacts = visible_contacts(maintenance.contacts, principal)
    return maintenance_detail_out(maintenance, impacted, contacts, language)
