"""Maintenance windows (spec 2, 3 and 7): the list, also read as ``items``/``totalItems``, and
one maintenance with its impacted services and contacts.

Customers see the maintenances impacting at least one service of their companies, and inside one
only their own services and contacts and the provider's contacts; staff see everything.
"""

import uuid
from typing import Annotated, cast

from fastapi import Depends, Request
from sqlmodel import col, select

from portal.provider.maintenances.queries import (
    MAINTENANCES,
    MaintenanceFiltersDep,
    each_impacting_visible_services,
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
from portal.provider.platform.hydra import ItemsCollection, PaginationDep
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort, ordered, paginate_in_one_statement
from portal.provider.platform.models import Maintenance, MaintenanceService, Service
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, through_visible_services
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/maintenances", tags=["maintenances"])


@router.get("", response_model=ItemsCollection[MaintenanceOut])
def list_maintenances(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    language: LanguageDep,
    filters: MaintenanceFiltersDep,
    sort: Annotated[Sort, Depends(MAINTENANCES.sorting.read)],
) -> ItemsCollection[MaintenanceOut]:
    """``dateStart[before]`` and ``dateEnd[after]`` together give the windows overlapping a
    period, as a calendar shows them."""
    statement = filters.apply(select(Maintenance))
    if filters.period:
        # A period's few windows are each checked on their own links and counted beside the
        # page by a window function: the cost follows the period, not the customer's history
        # (docs/decisions/maintenances-view.md).
        period = each_impacting_visible_services(statement, principal).order_by(*ordered(sort))
        maintenances, total = paginate_in_one_statement(db, period, page)
    else:
        # A customer's unfiltered count is read from the links alone, without the
        # maintenances (docs/decisions/maintenance-scope.md).
        count = None if filters.narrowing or principal.is_staff else impacted_count(principal)
        maintenances, total = MAINTENANCES.page(db, principal, statement, sort, page, count=count)
    members = [maintenance_out(maintenance, language) for maintenance in maintenances]
    return cast(ItemsCollection[MaintenanceOut], MAINTENANCES.answer(request, members, total, page))


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
