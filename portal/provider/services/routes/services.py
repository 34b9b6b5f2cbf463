"""Services: the filtered list and one service (spec sections 2, 3 and 7)."""

import uuid
from collections.abc import Sequence
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm.interfaces import LoaderOption
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import ACCESS_ORDER_PDF
from portal.provider.platform.db import SessionDep, preload
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.json_lists import json_list
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import (
    Service,
    ServiceAttribute,
    ServiceDocument,
    ServiceMilestone,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, visible_service_count
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.services.queries import SERVICES, ServiceFiltersDep, visible_services
from portal.provider.services.schemas.services import (
    ServiceIncludes,
    ServiceLists,
    ServiceOut,
    service_out,
)

router = ProviderRouter(prefix="/api/services", tags=["services"])


def _loaders(includes: frozenset[str]) -> list[LoaderOption]:
    """The single rows a service's JSON shows, joined into the statement that reads it."""
    relations: list[object] = [Service.endpoint_a, Service.endpoint_b, Service.delivery_manager]
    if "type" in includes:
        relations.append(Service.type)
    if "company" in includes:
        relations.append(Service.company)
    return preload(*relations)


_LISTS = (
    json_list(
        {
            "name": col(ServiceMilestone.name),
            "date": col(ServiceMilestone.date),
            "completed": col(ServiceMilestone.completed),
            "position": col(ServiceMilestone.position),
        },
        col(ServiceMilestone.service_id) == col(Service.id),
    ),
    json_list(
        {
            "name": col(ServiceAttribute.name),
            "value": col(ServiceAttribute.value),
            "group_name": col(ServiceAttribute.group_name),
            "constrained": col(ServiceAttribute.constrained),
        },
        col(ServiceAttribute.service_id) == col(Service.id),
    ),
    json_list(
        {
            "id": col(ServiceDocument.id),
            "kind": col(ServiceDocument.kind),
            "name": col(ServiceDocument.name),
        },
        col(ServiceDocument.service_id) == col(Service.id),
    ),
)


def service_lists(db: Session, services: Sequence[Service]) -> dict[uuid.UUID, ServiceLists]:
    """The milestones, attributes and documents of ``services``, in one statement."""
    if not services:
        return {}
    statement = select(col(Service.id), *_LISTS).where(
        col(Service.id).in_([service.id for service in services])
    )
    return {row[0]: ServiceLists(*row[1:]) for row in db.execute(statement)}


def services_out(
    db: Session,
    services: Sequence[Service],
    includes: frozenset[str],
    language: str,
    principal: Principal,
) -> list[ServiceOut]:
    """The JSON of ``services``, read with ``_loaders(includes)``."""
    lists = service_lists(db, services)
    may_read_order_pdf = principal.allows(ACCESS_ORDER_PDF)
    return [
        service_out(
            service, lists[service.id], includes, language, may_read_order_pdf=may_read_order_pdf
        )
        for service in services
    ]


def one_service_out(
    db: Session,
    statement: SelectOfScalar[Service],
    includes: frozenset[str],
    language: str,
    principal: Principal,
) -> ServiceOut:
    """The JSON of the one service ``statement`` selects (a 404 when none)."""
    service = one_or_404(db, statement.options(*_loaders(includes)))
    return services_out(db, [service], includes, language, principal)[0]


@router.get("", response_model=Collection[ServiceOut])
def list_services(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: ServiceIncludes,
    language: LanguageDep,
    filters: ServiceFiltersDep,
    sort: Annotated[Sort, Depends(SERVICES.sorting.read)],
) -> Collection[ServiceOut]:
    """Sorts: ``order[dateStart|reference|status]=asc|desc``; by default by reference. A
    customer's companies are read one ordered branch each, so that a deep page costs about what
    the first does (docs/decisions/deep-service-pages.md)."""
    statement = filters.apply(select(Service))
    rows = select(Service).options(*_loaders(includes))
    # A limited user's services, unfiltered, are counted from their grants (delegated-access.md).
    count = None if filters.narrow else visible_service_count(principal)
    services, total = SERVICES.page(db, principal, statement, sort, page, rows=rows, count=count)
    # Their child lists in one more statement, as JSON (docs/decisions/json-lists.md).
    members = services_out(db, services, includes, language, principal)
    return SERVICES.answer(request, members, total, page)


@router.get("/{service_id:uuid}", response_model=ServiceOut)
def get_service(
    service_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: ServiceIncludes,
    language: LanguageDep,
) -> ServiceOut:
    statement = visible_services(principal).where(Service.id == service_id)
    return one_service_out(db, statement, includes, language, principal)
