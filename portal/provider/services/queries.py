"""What the services' lists read, each declared once with its filters
(``portal.provider.platform.lists``): the services list, which its CSV export reads whole, and
the termination documents."""

import uuid
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.lists import ListOf, S, Sorting, either, words
from portal.provider.platform.models import (
    Service,
    ServiceStatus,
    TerminationDocument,
    TerminationService,
    fold,
)
from portal.provider.platform.scoping import services
from portal.provider.platform.security import Principal

SEARCH_MAX_LENGTH = 200

# The reference breaks ties in the direction of the last field: one index of (company, field,
# reference) then serves both directions; a customer's companies are read one branch each, so
# that a deep page costs about what the first does (docs/decisions/deep-service-pages.md).
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
    services(Service.company_id, Service.id),
    by_company=True,
)


def visible_services(principal: Principal) -> SelectOfScalar[Service]:
    """The services ``principal`` may read."""
    return SERVICES.scope(select(Service), principal)


@dataclass(frozen=True)
class ServiceFilters:
    search: str  # folded
    statuses: tuple[ServiceStatus, ...]
    type_ids: tuple[uuid.UUID, ...]

    @property
    def narrow(self) -> bool:
        """Whether they keep fewer services than the reader may read."""
        return bool(self.search or self.statuses or self.type_ids)

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


# Termination documents are reached through the services their termination covers, so they
# are scoped by those services (a limited user's: the granted ones).
TERMINATION_DOCUMENTS = ListOf(
    TerminationDocument,
    Sorting(
        then=((col(TerminationDocument.filename), False), (col(TerminationDocument.id), False))
    ),
    services(Service.company_id, Service.id),
)
ENDING_STATUSES = (ServiceStatus.UNDER_TERMINATION, ServiceStatus.TERMINATED)


def through_ending_services() -> SelectOfScalar[TerminationDocument]:
    """The documents of terminations covering a service that is ending or ended, not yet
    scoped: joined to those services, each document once."""
    return (
        select(TerminationDocument)
        .join(
            TerminationService,
            col(TerminationService.termination_id) == col(TerminationDocument.termination_id),
        )
        .join(Service, col(Service.id) == col(TerminationService.service_id))
        .where(col(Service.status).in_(ENDING_STATUSES))
        .distinct()
    )


def readable_termination_documents(principal: Principal) -> SelectOfScalar[TerminationDocument]:
    """The termination documents ``principal`` may read: through one of their services."""
    return TERMINATION_DOCUMENTS.scope(through_ending_services(), principal)


@dataclass(frozen=True)
class TerminationDocumentFilters:
    service_id: uuid.UUID | None

    def apply(self, statement: S) -> S:
        """Through the one service asked for (joined by ``through_ending_services``)."""
        if self.service_id is not None:
            statement = statement.where(col(Service.id) == self.service_id)
        return statement


async def termination_document_filters(
    service_uuid: Annotated[
        uuid.UUID | None,
        Query(alias="termination.services.uuid", description="A service's id."),
    ] = None,
) -> TerminationDocumentFilters:
    return TerminationDocumentFilters(service_id=service_uuid)


TerminationDocumentFiltersDep = Annotated[
    TerminationDocumentFilters, Depends(termination_document_filters)
]
