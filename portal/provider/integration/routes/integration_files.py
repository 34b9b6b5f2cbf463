"""The integration API's files (multipart uploads), for administrators: a service's documents
and order form, an invoice's PDF, a ticket's attachments. The object must exist first (sent in
a batch); a file sent again under the same name replaces the stored one. An API token needs the
scope of the object's kind (``services``, ``invoices``, ``tickets``)."""

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from portal.i18n import N_
from portal.provider.integration.files import (
    MAX_FILE_BYTES,
    Stored,
    put_invoice_pdf,
    put_order_pdf,
    put_service_document,
    put_ticket_attachment,
)
from portal.provider.platform import audit
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import DocumentKind
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import Principal, integration_writer
from portal.provider.platform.uploads import Upload, multipart_body, read_upload

router = ProviderRouter(prefix="/api/integration", tags=["integration"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {
        "description": "The caller is not an administrator, or is an API token without the "
        "object's kind in its scopes."
    },
    404: {"description": "No object has this reference."},
    413: {"description": f"The file exceeds {MAX_FILE_BYTES // (1024 * 1024)} MB."},
    422: {"description": "Empty file, or not a PDF where one is required (`file`)."},
}
_FILE = multipart_body()
_DOCUMENT = multipart_body(
    kind={
        "type": "string",
        "enum": [k.value for k in DocumentKind],
        "description": "`handover` or `loa`.",
    }
)
NOT_A_KIND = N_("This value should be one of: {choices}.")
ServicesWriter = Annotated[Principal, Depends(integration_writer("services"))]
InvoicesWriter = Annotated[Principal, Depends(integration_writer("invoices"))]
TicketsWriter = Annotated[Principal, Depends(integration_writer("tickets"))]


class FileOut(ApiModel):
    status: str = Field(description="`created`, `updated` or `unchanged` (same bytes).")
    id: str = Field(description="The id of the row the file belongs to.")
    name: str = Field(description="The file name as stored and offered for download.")


async def _read(request: Request) -> Upload:
    return await read_upload(request, limit=MAX_FILE_BYTES)


def _kind(upload: Upload) -> DocumentKind:
    try:
        return DocumentKind(upload.fields.get("kind", ""))
    except ValueError:
        choices = ", ".join(kind.value for kind in DocumentKind)
        violation = Violation("kind", NOT_A_KIND, {"choices": choices})
        raise ApiError(422, violations=[violation]) from None


async def _answer(
    request: Request,
    response: Response,
    db: SessionDep,
    principal: Principal,
    store: Callable[[], Stored],
    **detail: Any,
) -> FileOut:
    """Stores the file (``store``, off the event loop) and records the change."""
    stored = await run_in_threadpool(store)
    if stored.status != "unchanged":
        if principal.token is not None:
            detail |= {"token_id": str(principal.token.id), "token_name": principal.token.name}
        audit.record(
            db, request, "integration.file", actor=principal.user, status=stored.status, **detail
        )
    await run_in_threadpool(db.commit)
    response.status_code = 201 if stored.status == "created" else 200
    return FileOut(status=stored.status, id=str(stored.id), name=stored.name)


@router.put(
    "/services/{reference}/documents",
    response_model=FileOut,
    summary="Upload a service document",
    responses={201: {"description": "Stored as a new document."}, **_ERRORS},
    openapi_extra=_DOCUMENT,
)
async def put_document(
    reference: str,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: ServicesWriter,
) -> FileOut:
    """A handover report or letter of authorisation (PDF) of the service `reference`, keyed on
    its kind and file name."""
    upload = await _read(request)
    kind = _kind(upload)

    def store() -> Stored:
        return put_service_document(db, reference, kind, upload.name, upload.content)

    return await _answer(
        request, response, db, principal, store, service=reference, kind=kind.value
    )


@router.put(
    "/services/{reference}/order_pdf",
    response_model=FileOut,
    summary="Upload a service's order form",
    responses={201: {"description": "The service had no order form."}, **_ERRORS},
    openapi_extra=_FILE,
)
async def put_order(
    reference: str,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: ServicesWriter,
) -> FileOut:
    """The signed order form (PDF) of the service `reference`."""
    upload = await _read(request)

    def store() -> Stored:
        return put_order_pdf(db, reference, upload.name, upload.content)

    return await _answer(request, response, db, principal, store, service=reference, file="order")


@router.put(
    "/invoices/{reference}/pdf",
    response_model=FileOut,
    summary="Upload an invoice's PDF",
    responses={201: {"description": "The invoice had no PDF."}, **_ERRORS},
    openapi_extra=_FILE,
)
async def put_invoice(
    reference: str,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: InvoicesWriter,
) -> FileOut:
    """The PDF of the invoice or credit note `reference`."""
    upload = await _read(request)

    def store() -> Stored:
        return put_invoice_pdf(db, reference, upload.name, upload.content)

    return await _answer(request, response, db, principal, store, invoice=reference)


@router.put(
    "/tickets/{reference}/attachments",
    response_model=FileOut,
    summary="Upload a ticket attachment",
    responses={201: {"description": "Stored as a new attachment."}, **_ERRORS},
    openapi_extra=_FILE,
)
async def put_attachment(
    reference: str,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: TicketsWriter,
) -> FileOut:
    """An attachment of the ticket `reference`, keyed on its file name; any type."""
    upload = await _read(request)

    def store() -> Stored:
        return put_ticket_attachment(
            db, reference, upload.name, upload.content, upload.content_type
        )

    return await _answer(request, response, db, principal, store, ticket=reference)
