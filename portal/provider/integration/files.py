"""The files of the integration API: service documents and order forms, invoice PDFs, ticket
attachments. Stored under the data directory (``settings.data_dir``) as
``documents/integration/<area>/<row id>/<safe name>``; rows keep that relative path, as the
download routes expect. A file sent again with the same name replaces the stored one; the same
bytes change nothing.
"""

import hashlib
import uuid
from dataclasses import dataclass
from pathlib import PurePosixPath

from sqlmodel import Session, select

from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.file_store import display_name, write_file
from portal.provider.platform.models import (
    DocumentKind,
    Invoice,
    Service,
    ServiceDocument,
    Ticket,
    TicketAttachment,
)
from portal.settings import get_settings

MAX_FILE_BYTES = 25 * 1024 * 1024
STORE_DIR = PurePosixPath("documents") / "integration"
NOT_A_PDF = N_("The file must be a PDF document.")
EMPTY_FILE = N_("The file is empty.")
TOO_LARGE = N_("A file may not exceed {max} MB.")
UNKNOWN = N_("Nothing has the reference {reference}.")
# Types an attachment keeps; anything else is sent back as a plain download.
_KEPT_TYPES = {
    "application/pdf",
    "image/png",
    "image/jpeg",
    "image/gif",
    "text/plain",
    "text/csv",
    "application/zip",
}


@dataclass(frozen=True)
class Stored:
    """The outcome of one file: ``created``, ``updated`` or ``unchanged``, and its row id."""

    status: str
    id: uuid.UUID
    name: str


def check_content(content: bytes, *, pdf: bool) -> None:
    if len(content) > MAX_FILE_BYTES:
        raise ApiError(413, TOO_LARGE, max=MAX_FILE_BYTES // (1024 * 1024))
    if not content:
        raise ApiError(422, violations=[Violation("file", EMPTY_FILE)])
    if pdf and not content.startswith(b"%PDF-"):
        raise ApiError(422, violations=[Violation("file", NOT_A_PDF)])


def _same_bytes(relative: str | None, content: bytes) -> bool:
    if not relative:
        return False
    path = get_settings().data_dir / relative
    if not path.is_file() or path.stat().st_size != len(content):
        return False
    return hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(content).digest()


def _write(area: str, owner: uuid.UUID, name: str, content: bytes, previous: str | None) -> str:
    return write_file(STORE_DIR, f"{area}/{owner}", name, content, previous)


def _service(db: Session, reference: str) -> Service:
    service = db.exec(select(Service).where(Service.reference == reference)).first()
    if service is None:
        raise ApiError(404, UNKNOWN, reference=reference)
    return service


def put_service_document(
    db: Session, reference: str, kind: DocumentKind, filename: str, content: bytes
) -> Stored:
    """A handover or LOA of a service, by file name (a PDF)."""
    check_content(content, pdf=True)
    service = _service(db, reference)
    name = display_name(filename)
    statement = select(ServiceDocument).where(
        ServiceDocument.service_id == service.id,
        ServiceDocument.kind == kind,
        ServiceDocument.name == name,
    )
    document = db.exec(statement).first()
    if document is not None and _same_bytes(document.file_path, content):
        return Stored("unchanged", document.id, name)
    status = "updated" if document else "created"
    if document is None:
        document = ServiceDocument(service_id=service.id, kind=kind, name=name, file_path="")
    area = f"services/{kind.value}"
    document.file_path = _write(area, document.id, name, content, document.file_path)
    document.content_type = "application/pdf"
    db.add(document)
    return Stored(status, document.id, name)


def put_order_pdf(db: Session, reference: str, filename: str, content: bytes) -> Stored:
    """The order form of a service (a PDF)."""
    check_content(content, pdf=True)
    service = _service(db, reference)
    name = display_name(filename)
    if service.order_pdf_name == name and _same_bytes(service.order_pdf_path, content):
        return Stored("unchanged", service.id, name)
    status = "updated" if service.order_pdf_path else "created"
    service.order_pdf_path = _write("orders", service.id, name, content, service.order_pdf_path)
    service.order_pdf_name = name
    db.add(service)
    return Stored(status, service.id, name)


def put_invoice_pdf(db: Session, reference: str, filename: str, content: bytes) -> Stored:
    """The PDF of an invoice or credit note."""
    check_content(content, pdf=True)
    invoice = db.exec(select(Invoice).where(Invoice.reference == reference)).first()
    if invoice is None:
        raise ApiError(404, UNKNOWN, reference=reference)
    name = display_name(filename)
    if invoice.pdf_name == name and _same_bytes(invoice.pdf_path, content):
        return Stored("unchanged", invoice.id, name)
    status = "updated" if invoice.pdf_path else "created"
    invoice.pdf_path = _write("invoices", invoice.id, name, content, invoice.pdf_path)
    invoice.pdf_name = name
    db.add(invoice)
    return Stored(status, invoice.id, name)


def put_ticket_attachment(
    db: Session, reference: str, filename: str, content: bytes, content_type: str | None
) -> Stored:
    """An attachment of a ticket, by file name (any type; unusual types sent back as plain
    downloads)."""
    check_content(content, pdf=False)
    ticket = db.exec(select(Ticket).where(Ticket.reference == reference)).first()
    if ticket is None:
        raise ApiError(404, UNKNOWN, reference=reference)
    name = display_name(filename, fallback="attachment")
    statement = select(TicketAttachment).where(
        TicketAttachment.ticket_id == ticket.id, TicketAttachment.filename == name
    )
    attachment = db.exec(statement).first()
    if attachment is not None and _same_bytes(attachment.file_path, content):
        return Stored("unchanged", attachment.id, name)
    status = "updated" if attachment else "created"
    if attachment is None:
        attachment = TicketAttachment(ticket_id=ticket.id, filename=name, file_path="")
    attachment.file_path = _write("tickets", attachment.id, name, content, attachment.file_path)
    kept = (content_type or "").split(";")[0].strip().lower()
    attachment.content_type = kept if kept in _KEPT_TYPES else "application/octet-stream"
    attachment.size = len(content)
    db.add(attachment)
    return Stored(status, attachment.id, name)
