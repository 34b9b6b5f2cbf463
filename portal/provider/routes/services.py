"""Services: the filtered list and one service (spec sections 2, 3 and 7)."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm.interfaces import LoaderOption

from portal.permissions import ACCESS_ORDER_PDF
from portal.provider.db import SessionDep, preload
from portal.provider.hydra import (
    Collection,
    IncludesDep,
    Ordering,
    PaginationDep,
    collection,
    paginate,
)
from portal.provider.language import LanguageDep
from portal.provider.models import Service
from portal.provider.routes.service_filters import (
    ServiceFiltersDep,
    filter_services,
    service_ordering,
    visible_services,
)
from portal.provider.schemas.services import ServiceOut, service_out
from portal.provider.scoping import one_or_404
from portal.provider.security import CurrentPrincipal

router = APIRouter(prefix="/api/services", tags=["services"])


def service_loaders(includes: frozenset[str]) -> list[LoaderOption]:
    """Everything a service's JSON shows, one query per relation for a whole page."""
    relations: list[object] = [
        Service.milestones,
        Service.attributes,
        Service.documents,
        Service.endpoint_a,
        Service.endpoint_b,
        Service.delivery_manager,
    ]
    if "type" in includes:
        relations.append(Service.type)
    if "company" in includes:
        relations.append(Service.company)
    return preload(*relations)


@router.get("", response_model=Collection[ServiceOut])
def list_services(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: IncludesDep,
    language: LanguageDep,
    filters: ServiceFiltersDep,
    order: Annotated[Ordering, Depends(service_ordering)],
) -> Collection[ServiceOut]:
    statement = filter_services(visible_services(principal), filters)
    statement = statement.options(*service_loaders(includes)).order_by(*order)
    services, total = paginate(db, statement, page)
    may_read_order_pdf = principal.allows(ACCESS_ORDER_PDF)
    members = [
        service_out(service, includes, language, may_read_order_pdf=may_read_order_pdf)
        for service in services
    ]
    return collection(request, "Service", members, total, page)


@router.get("/{service_id:uuid}", response_model=ServiceOut)
def get_service(
    service_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: IncludesDep,
    language: LanguageDep,
) -> ServiceOut:
    statement = visible_services(principal).where(Service.id == service_id)
    service = one_or_404(db, statement.options(*service_loaders(includes)))
    return service_out(
        service, includes, language, may_read_order_pdf=principal.allows(ACCESS_ORDER_PDF)
    )
