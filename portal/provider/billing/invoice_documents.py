"""Invoice PDFs the provider writes itself, on the first download, then served from disk.

A row whose ``pdf_path`` lies under ``documents/invoices/`` of the data directory points to a
generated PDF: when the file is not there yet, the download renders it from the row
(``invoice_pdf``) and keeps it. Other paths are documents delivered by the provider's systems
and are sent as stored (docs/decisions/invoice-pdfs.md).
"""

import logging
import os
import shutil
import tempfile
import uuid
from pathlib import Path

from sqlmodel import Session

from portal.provider.billing.invoice_pdf import render_invoice_pdf
from portal.provider.platform.models import Company, Invoice
from portal.settings import get_settings

logger = logging.getLogger(__name__)

GENERATED_DIR = Path("documents") / "invoices"


def generated_pdf_path(invoice_id: uuid.UUID) -> str:
    """The ``pdf_path`` of an invoice whose PDF the provider generates."""
    return (GENERATED_DIR / f"{invoice_id}.pdf").as_posix()


def is_generated(pdf_path: str | None) -> bool:
    return bool(pdf_path) and Path(pdf_path or "").parent == GENERATED_DIR


def ensure_generated(db: Session, invoice: Invoice, data_dir: Path | None = None) -> None:
    """Writes the invoice's generated PDF unless it is already on disk (no-op for stored ones).
    Written to a temporary file and renamed, so a download never sees half a file."""
    if not is_generated(invoice.pdf_path):
        return
    target = (data_dir or get_settings().data_dir) / str(invoice.pdf_path)
    if target.is_file():
        return
    company = db.get_one(Company, invoice.company_id)
    document = render_invoice_pdf(invoice, company, get_settings())
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".part", delete=False) as part:
        part.write(document)
    os.replace(part.name, target)
    logger.info("Generated the PDF of invoice %s", invoice.reference)


def clear_generated(data_dir: Path) -> None:
    """Forgets every generated PDF: a new database has other invoices under the same ids."""
    shutil.rmtree(data_dir / GENERATED_DIR, ignore_errors=True)
