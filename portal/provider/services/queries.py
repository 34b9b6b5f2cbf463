"""What the services' lists read, each declared once with its filters
(``portal.provider.platform.lists``): the services list, which its CSV export reads whole."""

import uuid
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.lists import ListOf, S, Sorting, either, words
from portal.provider.platform.models import Service, ServiceStatus, fold
from portal.provider.platform.scoping import companies
from portal.provider.platform.security import Principal

SEARCH_MAX_LENGTH = 200

# The reference breaks ties in the direction of the last field: one index of (field,
# reference) then serves both directions.
SERVICES = ListOf(
    Service,
    Sorting(
        {
            "dateStart": col(Service.date_start),
            "reference": col(Service.reference),
            "status": col(Service.status),
        },
        tiebreak=col(Service.reference),
    ),
    companies(Service.company_id),
)


def visible_services(principal: Principal) -> SelectOfScalar[Service]:
    """The services ``principal`` may read."""
    return SERVICES.scope(select(Service), principal)


@dataclass(frozen=True)
class ServiceFilters:
    search: str  # folded
    statuses: tuple[ServiceStatus, ...]
    type_ids: tuple[uuid.UUID, ...]

    def apply(self, statement: S) -> S:
        """Every word of the search must appear in the folded search column
        (docs/decisions/service-search.md)."""
        if self.search:
            statement = statement.where(*words(Service.search_text, self.search))
        if self.statuses:
            statement = statement.where(col(Service.status).in_(self.statuses))
        if self.type_ids:
            statement = statement.where(col(Service.type_id).in_(self.type_ids))
        return statement


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
        statuses=either(status, status_plain),
        type_ids=either(type_uuid, type_uuid_plain),
    )


ServiceFiltersDep = Annotated[ServiceFilters, Depends(service_filters)]
