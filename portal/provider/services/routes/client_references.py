"""Client references of services (spec 5, DESIGN 6): one service at a time, or by CSV import
of ``reference;clientReferences`` lines, all or nothing. Both need access to Service.ref."""

from fastapi import Request
from fastapi.responses import Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from portal.client_references import (
    CLIENT_REFERENCE_MAX_LENGTH,
    CLIENT_REFERENCES_MAX,
    IMPORT_HEADER,
    INVALID_CSV_FILE,
    REFERENCE_MAX_LENGTH,
    TEMPLATE_FILENAME,
    is_csv_file,
    split_client_references,
)
from portal.i18n import N_
from portal.permissions import MANAGE_SERVICE_REFERENCES
from portal.provider.platform import audit
from portal.provider.platform.db import SessionDep
from portal.provider.platform.downloads import CSV_ANSWER, content_disposition
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.models import Service
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.platform.uploads import multipart_body, read_upload
from portal.provider.services.client_reference_csv import (
    UTF8_BOM,
    CsvRejected,
    csv_lines,
    parse_import,
)
from portal.provider.services.client_reference_writes import write_client_references
from portal.provider.services.queries import visible_services
from portal.provider.services.routes.services import one_service_out
from portal.provider.services.schemas.services import ServiceIncludes, ServiceOut
from portal.settings import get_settings

router = ProviderRouter(prefix="/api/services/client_reference", tags=["services"])

NOT_IMPORTED = N_("Nothing was imported: correct the lines listed and send the file again.")
# A report longer than this helps nobody; the last entry says how many more lines are wrong.
REPORT_MAX_LINES = 100
MORE_ERRORS = N_("And {count} more lines with errors.")


class ClientReferenceUpdate(ApiModel):
    reference: str = Field(min_length=1, max_length=REFERENCE_MAX_LENGTH)
    client_references: str | list[str] = Field(
        description="Comma-separated client references (or a list); empty removes them all."
    )


class ImportResult(ApiModel):
    imported: int


def _require_reference_access(principal: Principal) -> None:
    if not principal.allows(MANAGE_SERVICE_REFERENCES):
        raise ApiError(403)


def _client_references(value: str | list[str]) -> list[str]:
    text = value if isinstance(value, str) else ",".join(value)
    references = split_client_references(text, limit=CLIENT_REFERENCES_MAX)
    path = "clientReferences"
    if any(len(reference) > CLIENT_REFERENCE_MAX_LENGTH for reference in references):
        message = N_("Each client reference must be {max} characters or less.")
        violation = Violation(path, message, {"max": CLIENT_REFERENCE_MAX_LENGTH})
        raise ApiError(422, N_("The data sent is not valid."), violations=[violation])
    if len(references) > CLIENT_REFERENCES_MAX:
        message = N_("A service can have at most {max} client references.")
        violation = Violation(path, message, {"max": CLIENT_REFERENCES_MAX})
        raise ApiError(422, N_("The data sent is not valid."), violations=[violation])
    return references


@router.post(
    "",
    response_model=ServiceOut,
    responses={404: {"description": "No service the caller may see has this reference."}},
)
def update_client_references(
    body: ClientReferenceUpdate,
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: ServiceIncludes,
    language: LanguageDep,
) -> ServiceOut:
    """Replace a service's client references with the comma-separated list given."""
    _require_reference_access(principal)
    references = _client_references(body.client_references)
    statement = visible_services(principal).where(Service.reference == body.reference.strip())
    service = one_or_404(db, statement)
    # A new list, not the old one changed in place: the JSON column and the search text
    # are refreshed only when the attribute is assigned.
    service.client_references = references
    db.add(service)
    audit.record(
        db,
        request,
        "service.client_references",
        actor=principal.user,
        impersonator=principal.impersonator,
        reference=service.reference,
    )
    db.commit()
    return one_service_out(db, statement, includes, language, principal)


def _report(violations: list[Violation]) -> list[Violation]:
    if len(violations) <= REPORT_MAX_LINES:
        return violations
    more = Violation("file", MORE_ERRORS, {"count": len(violations) - REPORT_MAX_LINES})
    return [*violations[:REPORT_MAX_LINES], more]


@router.post("/import", response_model=ImportResult, openapi_extra=multipart_body())
async def import_client_references(
    request: Request, db: SessionDep, principal: CurrentPrincipal
) -> ImportResult:
    """A ``reference;clientReferences`` CSV (multipart field ``file``): every line is checked
    first, then all are written in one transaction; any wrong line and nothing is written."""
    _require_reference_access(principal)
    settings = get_settings()
    upload = await read_upload(
        request, limit=settings.import_max_bytes, accepts=is_csv_file, refusal=INVALID_CSV_FILE
    )
    try:
        parsed = await run_in_threadpool(parse_import, upload.content)
    except CsvRejected as rejected:
        violation = Violation("file", rejected.message)
        raise ApiError(422, rejected.message, violations=[violation]) from rejected
    violations = await run_in_threadpool(write_client_references, db, principal, parsed)
    if violations:
        raise ApiError(422, NOT_IMPORTED, violations=_report(violations))
    audit.record(
        db,
        request,
        "service.client_references.import",
        actor=principal.user,
        impersonator=principal.impersonator,
        imported=len(parsed.lines),
    )
    await run_in_threadpool(db.commit)
    return ImportResult(imported=len(parsed.lines))


@router.get("/download_csv", response_class=Response, responses=CSV_ANSWER)
def download_template(_principal: CurrentPrincipal) -> Response:
    """The import template: the header line only, ready for Excel (UTF-8 with BOM)."""
    return Response(
        (UTF8_BOM + csv_lines([list(IMPORT_HEADER)])).encode("utf-8"),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": content_disposition(TEMPLATE_FILENAME)},
    )
