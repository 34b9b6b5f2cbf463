"""The filters of the services list (spec 2 and 7), shared by the list and the CSV export."""

import uuid
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Query, Request
from sqlalchemy.sql import operators
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.lists import Ordering, ordering
from portal.provider.platform.models import Service, ServiceStatus, fold
from portal.provider.platform.scoping import scope_to_companies
from portal.provider.platform.security import Principal

T = TypeVar("T")
SEARCH_MAX_LENGTH = 200

_requested_ordering = ordering(
    {
        "dateStart": col(Service.date_start),
        "reference": col(Service.reference),
        "status": col(Service.status),
    },
    default=[],
)


async def service_ordering(request: Request) -> Ordering:
    """The requested order, then the reference to break ties in the direction of the last
    requested field: one index of (field, reference) then serves both directions."""
    clauses = await _requested_ordering(request)
    descending = bool(clauses) and clauses[-1].modifier is operators.desc_op
    reference = col(Service.reference)
    return [*clauses, reference.desc() if descending else reference.asc()]


@dataclass(frozen=True)
class ServiceFilters:
    search: str
    statuses: tuple[ServiceStatus, ...]
    type_ids: tuple[uuid.UUID, ...]


async def service_filters(
    search: Annotated[
        str | None,
        Query(
            max_length=SEARCH_MAX_LENGTH,
            description="Words found in the reference, a client reference, an endpoint or the "
            "type's label (either language); any case, with or without accents.",
        ),
    ] = None,
    status: Annotated[list[ServiceStatus] | None, Query(alias="status[]")] = None,
    status_plain: Annotated[
        list[ServiceStatus] | None, Query(alias="status", include_in_schema=False)
    ] = None,
    type_uuid: Annotated[list[uuid.UUID] | None, Query(alias="type.uuid[]")] = None,
    type_uuid_plain: Annotated[
        list[uuid.UUID] | None, Query(alias="type.uuid", include_in_schema=False)
    ] = None,
) -> ServiceFilters:
    return ServiceFilters(
        search=fold(search or ""),
        statuses=tuple(dict.fromkeys([*(status or ()), *(status_plain or ())])),
        type_ids=tuple(dict.fromkeys([*(type_uuid or ()), *(type_uuid_plain or ())])),
    )


ServiceFiltersDep = Annotated[ServiceFilters, Depends(service_filters)]


def _like_pattern(word: str) -> str:
    escaped = word.replace("/", "//").replace("%", "/%").replace("_", "/_")
    return f"%{escaped}%"


def visible_services(principal: Principal) -> SelectOfScalar[Service]:
    """The services ``principal`` may read."""
    return scope_to_companies(select(Service), principal, Service.company_id)


def filter_services(statement: Any, filters: ServiceFilters) -> Any:
    """``statement`` narrowed by the list's filters. Every word of the search must appear in the
    folded search column: a plain LIKE, which PostgreSQL serves from a trigram index."""
    for word in filters.search.split():
        statement = statement.where(col(Service.search_text).like(_like_pattern(word), escape="/"))
    if filters.statuses:
        statement = statement.where(col(Service.status).in_(filters.statuses))
    if filters.type_ids:
        statement = statement.where(col(Service.type_id).in_(filters.type_ids))
    return statement
