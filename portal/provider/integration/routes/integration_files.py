"""The integration API's files (multipart uploads), for administrators: a service's documents
and order form, an invoice's PDF, a ticket's attachments. The object must exist first (sent in
a batch); a file sent again under the same name replaces the stored one. An API token needs the
scope of the object's kind (``services``, ``invoices``, ``tickets``)."""

from typing import Annotated, Any

from fastapi import Depends, File, Form, Request, Response, UploadFile
from pydantic import Field

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
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import DocumentKind
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import Principal, integration_writer

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
UploadDep = Annotated[UploadFile, File(description="The file; its name is kept.")]
ServicesWriter = Annotated[Principal, Depends(integration_writer("services"))]
InvoicesWriter = Annotated[Principal, Depends(integration_writer("invoices"))]
TicketsWriter = Annotated[Principal, Depends(integration_writer("tickets"))]


class FileOut(ApiModel):
    status: str = Field(description="`created`, `updated` or `unchanged` (same bytes).")
    id: str = Field(description="The id of the row the file belongs to.")
    name: str = Field(description="The file name as stored and offered for download.")


def _read(upload: UploadFile) -> bytes:
    # One byte past the limit is enough to refuse the file without reading all of it.
    return upload.file.read(MAX_FILE_BYTES + 1)


def _answer(
    request: Request,
    response: Response,
    db: SessionDep,
    principal: Principal,
    stored: Stored,
    **detail: Any,
) -> FileOut:
    if stored.status != "unchanged":
        if principal.token is not None:
            detail |= {"token_id": str(principal.token.id), "token_name": principal.token.name}
        audit.record(
            db, request, "integration.file", actor=principal.user, status=stored.status, **detail
        )
    db.commit()
    response.status_code = 201 if stored.status == "created" else 200
    return FileOut(status=stored.status, id=str(stored.id), name=stored.name)


@router.put(
    "/services/{reference}/documents",
    response_model=FileOut,
    summary="Upload a service document",
    responses={201: {"description": "Stored as a new document."}, **_ERRORS},
)
def put_document(
    reference: str,
    kind: Annotated[DocumentKind, Form(description="`handover` or `loa`.")],
    file: UploadDep,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: ServicesWriter,
) -> FileOut:
    """A handover report or letter of authorisation (PDF) of the service `reference`, keyed on
    its kind and file name."""
    stored = put_service_document(db, reference, kind, file.filename or "", _read(file))
    return _answer(request, response, db, principal, stored, service=reference, kind=kind.value)


@router.put(
    "/services/{reference}/order_pdf",
    response_model=FileOut,
    summary="Upload a service's order form",
    responses={201: {"description": "The service had no order form."}, **_ERRORS},
)
def put_order(
    reference: str,
    file: UploadDep,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: ServicesWriter,
) -> FileOut:
    """The signed order form (PDF) of the service `reference`."""
    stored = put_order_pdf(db, reference, file.filename or "", _read(file))
    return _answer(request, response, db, principal, stored, service=reference, file="order")


@router.put(
    "/invoices/{reference}/pdf",
    response_model=FileOut,
    summary="Upload an invoice's PDF",
    responses={201: {"description": "The invoice had no PDF."}, **_ERRORS},
)
def put_invoice(
    reference: str,
    file: UploadDep,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: InvoicesWriter,
) -> FileOut:
    """The PDF of the invoice or credit note `reference`."""
    stored = put_invoice_pdf(db, reference, file.filename or "", _read(file))
    return _answer(request, response, db, principal, stored, invoice=reference)


@router.put(
    "/tickets/{reference}/attachments",
    response_model=FileOut,
    summary="Upload a ticket attachment",
    responses={201: {"description": "Stored as a new attachment."}, **_ERRORS},
)
def put_attachment(
    reference: str,
    file: UploadDep,
    request: Request,
    response: Response,
    db: SessionDep,
    principal: TicketsWriter,
) -> FileOut:
    """An attachment of the ticket `reference`, keyed on its file name; any type."""
    content = _read(file)
    stored = put_ticket_attachment(db, reference, file.filename or "", content, file.content_type)
    return _answer(request, response, db, principal, stored, ticket=reference)
