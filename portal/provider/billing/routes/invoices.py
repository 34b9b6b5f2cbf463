"""Invoices and credit notes (spec 2, 3 and 7): the list with its filters, one invoice and its
PDF. Every route needs access to Invoice; customers see their companies' invoices only."""

import uuid
from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import FileResponse
from sqlmodel import and_, col, select

from portal.provider.billing.invoice_documents import ensure_generated
from portal.provider.billing.queries import (
    INVOICES,
    InvoiceFiltersDep,
    readable_invoices,
    require_invoice_access,
    visible_invoices,
)
from portal.provider.billing.schemas.invoices import (
    InvoiceIncludes,
    InvoiceOut,
    invoice_line_out,
    invoice_out,
)
from portal.provider.platform.db import SessionDep, planned_once, preload
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import Invoice, InvoiceLine, Service
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import company_condition, one_or_404, service_condition
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(prefix="/api/invoices", tags=["invoices"])


@router.get("", response_model=Collection[InvoiceOut])
def list_invoices(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: InvoiceIncludes,
    language: LanguageDep,
    filters: InvoiceFiltersDep,
    sort: Annotated[Sort, Depends(INVOICES.sorting.read)],
) -> Collection[InvoiceOut]:
    """Due dates are inclusive at both ends. Sorts: ``order[dateInvoice|dateDue|reference|
    amount]=asc|desc``; by default the newest invoices first."""
    statement = filters.apply(readable_invoices(principal))
    rows = select(Invoice)
    if "company" in includes:
        rows = rows.options(*preload(Invoice.company))
    invoices, total = INVOICES.page(db, principal, statement, sort, page, rows=rows)
    members = [invoice_out(invoice, includes, language) for invoice in invoices]
    return INVOICES.answer(request, members, total, page)


@router.get("/{invoice_id:uuid}", response_model=InvoiceOut)
def get_invoice(
    invoice_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: InvoiceIncludes,
    language: LanguageDep,
) -> InvoiceOut:
    """The invoice with its lines, each naming its service when the reader may read it."""
    require_invoice_access(principal)
    # One statement: the invoice once per line (or once, without lines).
    statement = (
        select(Invoice, InvoiceLine, Service.id)
        .outerjoin(InvoiceLine, col(InvoiceLine.invoice_id) == col(Invoice.id))
        .outerjoin(
            Service,
            and_(
                col(Service.id) == col(InvoiceLine.service_id),
                service_condition(principal, Service.company_id, Service.id),
            ),
        )
        .where(Invoice.id == invoice_id, company_condition(principal, Invoice.company_id))
        .order_by(col(InvoiceLine.label), col(InvoiceLine.id))
    )
    rows = db.exec(planned_once(statement)).all()
    if not rows:
        raise ApiError(404)
    lines = [invoice_line_out(line, service_id) for _, line, service_id in rows if line]
    return invoice_out(rows[0][0], includes, language, lines)


@router.get(
    "/{invoice_id:uuid}/pdf", response_class=FileResponse, responses=file_answer("application/pdf")
)
def download_invoice(
    invoice_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    """The invoice's PDF; one the provider generates is written on the first download."""
    statement = visible_invoices(principal).where(Invoice.id == invoice_id)
    invoice = one_or_404(db, statement)
    ensure_generated(db, invoice)
    return attachment(
        invoice.pdf_path, invoice.pdf_name or f"{invoice.reference}.pdf", "application/pdf"
    )
