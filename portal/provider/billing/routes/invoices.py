"""Invoices and credit notes (spec 2, 3 and 7): the list with its filters, one invoice and its
PDF. Every route needs access to Invoice; customers see their companies' invoices only."""

import uuid
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.responses import FileResponse
from sqlmodel import and_, col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import ACCESS_INVOICES
from portal.provider.billing.invoice_documents import ensure_generated
from portal.provider.billing.schemas.invoices import (
    InvoiceIncludes,
    InvoiceOut,
    invoice_line_out,
    invoice_out,
)
from portal.provider.platform.db import SessionDep, planned_once, preload
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, IsoDate, PaginationDep, collection
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import paginate_branches, requested_sort
from portal.provider.platform.models import Invoice, InvoiceLine, InvoiceType, Service
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import (
    company_branches,
    company_condition,
    one_or_404,
    scope_to_companies,
)
from portal.provider.platform.security import CurrentPrincipal, Principal

router = ProviderRouter(prefix="/api/invoices", tags=["invoices"])

_SORTABLE = {
    "dateInvoice": col(Invoice.date_invoice),
    "dateDue": col(Invoice.date_due),
    "reference": col(Invoice.reference),
    "amount": col(Invoice.amount),
}
_NEWEST_FIRST = [("dateInvoice", True)]


async def invoice_sort(request: Request) -> list[tuple[Any, bool]]:
    """The requested order, else the newest invoices first (spec 2: dateInvoice descending).
    The reference (unique) breaks ties in the direction of the last field, so that one index
    ``(company, field, reference)`` is read forwards or backwards without a sort."""
    keys: list[tuple[str, bool]] = []
    for field, descending in requested_sort(request, _SORTABLE):
        # A field named twice sorts by its first direction: the second cannot change the order.
        if all(field != seen for seen, _ in keys):
            keys.append((field, descending))
    keys = keys or _NEWEST_FIRST
    if all(field != "reference" for field, _ in keys):
        keys = [*keys, ("reference", keys[-1][1])]
    return [(_SORTABLE[field], descending) for field, descending in keys]


def visible_invoices(principal: Principal) -> SelectOfScalar[Invoice]:
    return scope_to_companies(readable_invoices(principal), principal, Invoice.company_id)


def readable_invoices(principal: Principal) -> SelectOfScalar[Invoice]:
    """Every invoice, once the principal may access invoices (not yet scoped)."""
    require_invoice_access(principal)
    return select(Invoice)


def require_invoice_access(principal: Principal) -> None:
    """Spec 6: admin, read-only staff or ROLE_ACCESS_INVOICES; anyone else gets 403."""
    if not principal.allows(ACCESS_INVOICES):
        raise ApiError(403)


@router.get("", response_model=Collection[InvoiceOut])
def list_invoices(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: InvoiceIncludes,
    language: LanguageDep,
    sort: Annotated[list[tuple[Any, bool]], Depends(invoice_sort)],
    service_uuid: Annotated[
        uuid.UUID | None, Query(alias="lines.services.uuid", description="A billed service.")
    ] = None,
    invoice_type: Annotated[InvoiceType | None, Query(alias="type")] = None,
    is_paid: Annotated[
        bool | None, Query(alias="isPaid", description="true/1 paid, false/0 not (fully) paid.")
    ] = None,
    reference: Annotated[str | None, Query(max_length=100, description="Part of it.")] = None,
    due_after: Annotated[
        IsoDate | None, Query(alias="dateDue[after]", description="From this day on.")
    ] = None,
    due_before: Annotated[
        IsoDate | None, Query(alias="dateDue[before]", description="Up to this day included.")
    ] = None,
) -> Collection[InvoiceOut]:
    """Due dates are inclusive at both ends. Sorts: ``order[dateInvoice|dateDue|reference|
    amount]=asc|desc``; by default the newest invoices first."""
    statement = readable_invoices(principal)
    if service_uuid is not None:
        billed = select(InvoiceLine.invoice_id).where(InvoiceLine.service_id == service_uuid)
        statement = statement.where(col(Invoice.id).in_(billed))
    if invoice_type is not None:
        statement = statement.where(Invoice.type == invoice_type)
    if is_paid is not None:
        statement = statement.where(Invoice.is_paid == is_paid)
    if reference and reference.strip():
        # ILIKE on PostgreSQL, served by the reference's trigram index; lower() on SQLite.
        statement = statement.where(
            col(Invoice.reference).icontains(reference.strip(), autoescape=True)
        )
    if due_after is not None:
        statement = statement.where(col(Invoice.date_due) >= due_after)
    if due_before is not None:
        statement = statement.where(col(Invoice.date_due) <= due_before)
    scoped = scope_to_companies(statement, principal, Invoice.company_id)
    branches = company_branches(statement, principal, Invoice.company_id)
    rows = select(Invoice)
    if "company" in includes:
        rows = rows.options(*preload(Invoice.company))
    invoices, total = paginate_branches(db, scoped, branches, sort, col(Invoice.id), rows, page)
    members = [invoice_out(invoice, includes, language) for invoice in invoices]
    return collection(request, "Invoice", members, total, page)


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
                company_condition(principal, Service.company_id),
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
