"""The files named in a JSON Lines import: paths (relative to the file being imported) that the
API would receive as multipart uploads, stored through the same functions.

- service: ``"documents": [{"kind": "handover" | "loa", "file": "path"}]``, ``"orderPdf": "path"``
- invoice: ``"pdf": "path"``
- ticket: ``"attachments": ["path", …]``
"""

import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import Session

from portal.provider.integration.files import (
    MAX_FILE_BYTES,
    Stored,
    put_invoice_pdf,
    put_order_pdf,
    put_service_document,
    put_ticket_attachment,
)
from portal.provider.platform.models import DocumentKind

FILE_FIELDS = {
    "service": ("documents", "orderPdf"),
    "invoice": ("pdf",),
    "ticket": ("attachments",),
}


@dataclass(frozen=True)
class FileRef:
    """One file to store once the object of its line is written."""

    field: str  # where it was named on the line, as a violation's path
    path: Path
    store: Callable[[Session, str, str, bytes], Stored]


class FileProblem(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _path(base: Path, field: str, value: Any) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise FileProblem(field, "should be the path of a file")
    path = (base / value).resolve()
    if not path.is_file():
        raise FileProblem(field, f"no file at {path}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise FileProblem(field, f"{path} exceeds {MAX_FILE_BYTES // (1024 * 1024)} MB")
    return path


def _document(kind: DocumentKind) -> Callable[[Session, str, str, bytes], Stored]:
    def store(db: Session, reference: str, filename: str, content: bytes) -> Stored:
        return put_service_document(db, reference, kind, filename, content)

    return store


def _attachment(path: Path) -> Callable[[Session, str, str, bytes], Stored]:
    def store(db: Session, reference: str, filename: str, content: bytes) -> Stored:
        content_type = mimetypes.guess_type(path.name)[0]
        return put_ticket_attachment(db, reference, filename, content, content_type)

    return store


def take_files(kind: str, line: dict[str, Any], base: Path) -> list[FileRef]:
    """Remove the file fields from ``line`` and answer the files they name; raises
    ``FileProblem`` for a malformed field or a missing file."""
    refs: list[FileRef] = []
    values = {field: line.pop(field) for field in FILE_FIELDS.get(kind, ()) if field in line}
    if "documents" in values:
        documents = values["documents"]
        if not isinstance(documents, list):
            raise FileProblem("documents", "should be a list of {kind, file}")
        for position, document in enumerate(documents):
            field = f"documents[{position}]"
            if not isinstance(document, dict) or document.get("kind") not in ("handover", "loa"):
                raise FileProblem(field, 'should be {"kind": "handover" or "loa", "file": path}')
            path = _path(base, f"{field}.file", document.get("file"))
            refs.append(FileRef(field, path, _document(DocumentKind(document["kind"]))))
    if "orderPdf" in values:
        refs.append(FileRef("orderPdf", _path(base, "orderPdf", values["orderPdf"]), put_order_pdf))
    if "pdf" in values:
        refs.append(FileRef("pdf", _path(base, "pdf", values["pdf"]), put_invoice_pdf))
    if "attachments" in values:
        attachments = values["attachments"]
        if not isinstance(attachments, list):
            raise FileProblem("attachments", "should be a list of paths")
        for position, value in enumerate(attachments):
            path = _path(base, f"attachments[{position}]", value)
            refs.append(FileRef(f"attachments[{position}]", path, _attachment(path)))
    return refs
