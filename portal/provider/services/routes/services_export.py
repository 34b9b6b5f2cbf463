"""The CSV export of the services list (spec 7, DESIGN 6), with the list's filters and order.

Streamed: rows come from the database a thousand at a time (a server-side cursor on
PostgreSQL) and leave as CSV text as they come, so memory stays flat whatever the number of
services. The first two columns are the import's, so an export can be edited and imported back;
the others are there to read. Every cell that a spreadsheet would run as a formula is
neutralised.
"""

from collections.abc import Iterator
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import Engine
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from portal.client_references import EXPORT_FILENAME, IMPORT_HEADER, join_client_references
from portal.provider.platform.downloads import CSV_ANSWER, content_disposition
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort, ordered
from portal.provider.platform.models import Company, Endpoint, Service, ServiceStatus, ServiceType
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal
from portal.provider.services.client_reference_csv import UTF8_BOM, csv_lines
from portal.provider.services.queries import SERVICES, ServiceFiltersDep
from portal.provider.services.schemas.services import status_label

router = ProviderRouter(prefix="/api/services", tags=["services"])

COLUMNS = (
    *IMPORT_HEADER,
    "type",
    "status",
    "company",
    "dateStart",
    "dateTermination",
    "endpointA",
    "endpointB",
)
BATCH = 1000

_ENDPOINT_A = aliased(Endpoint)
_ENDPOINT_B = aliased(Endpoint)


def _place(name: str | None, city: str | None) -> str:
    return ", ".join(part for part in (name, city) if part)


def _cells(row: Any, language: str, statuses: dict[ServiceStatus, str]) -> list[str]:
    return [
        row.reference,
        join_client_references(row.client_references or []),
        row.label_fr if language == "fr" else row.label_en,
        statuses[row.status],
        row.company,
        row.date_start.isoformat() if row.date_start else "",
        row.date_termination.isoformat() if row.date_termination else "",
        _place(row.a_name, row.a_city),
        _place(row.b_name, row.b_city),
    ]


def _lines(engine: Engine, statement: Any, language: str) -> Iterator[bytes]:
    yield (UTF8_BOM + csv_lines([list(COLUMNS)])).encode("utf-8")
    statuses = {status: status_label(status, language) for status in ServiceStatus}
    # Its own session: the request's is closed by the time the body streams.
    with Session(engine) as session:
        result = session.exec(statement.execution_options(yield_per=BATCH))
        for rows in result.partitions():
            yield csv_lines([_cells(row, language, statuses) for row in rows]).encode("utf-8")


@router.get("/export", response_class=StreamingResponse, responses=CSV_ANSWER)
def export_services(
    request: Request,
    principal: CurrentPrincipal,
    language: LanguageDep,
    filters: ServiceFiltersDep,
    sort: Annotated[Sort, Depends(SERVICES.sorting.read)],
) -> StreamingResponse:
    """The services of the list's filters as ``export_services.csv`` (UTF-8 with BOM, ``;``)."""
    # Several columns of several tables: SQLAlchemy's select, typed loosely by sqlmodel.
    statement: Any = (
        sa.select(
            col(Service.reference),
            col(Service.client_references),
            col(Service.status),
            col(Service.date_start),
            col(Service.date_termination),
            col(ServiceType.label_en),
            col(ServiceType.label_fr),
            col(Company.name).label("company"),
            col(_ENDPOINT_A.name).label("a_name"),
            col(_ENDPOINT_A.city).label("a_city"),
            col(_ENDPOINT_B.name).label("b_name"),
            col(_ENDPOINT_B.city).label("b_city"),
        )
        .join(ServiceType, col(ServiceType.id) == col(Service.type_id))
        .join(Company, col(Company.id) == col(Service.company_id))
        .outerjoin(_ENDPOINT_A, col(_ENDPOINT_A.id) == col(Service.endpoint_a_id))
        .outerjoin(_ENDPOINT_B, col(_ENDPOINT_B.id) == col(Service.endpoint_b_id))
    )
    # The list's own statement, scope, filters and order, read whole and streamed, not paged.
    statement = SERVICES.scope(filters.apply(statement), principal).order_by(*ordered(sort))
    return StreamingResponse(
        _lines(request.app.state.engine, statement, language),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": content_disposition(EXPORT_FILENAME),
            "Cache-Control": "private, no-store",
        },
    )
