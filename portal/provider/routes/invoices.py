"""Invoices and credit notes (spec 2, 3 and 7): the list with its filters, one invoice and its
PDF. Every route needs access to Invoice; customers see their companies' invoices only."""

import datetime as dt
import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import ACCESS_INVOICES
from portal.provider.db import SessionDep, preload
from portal.provider.downloads import attachment
from portal.provider.errors import ApiError
from portal.provider.hydra import (
    Collection,
    IncludesDep,
    Ordering,
    PaginationDep,
    collection,
    ordering,
    paginate,
)
from portal.provider.language import LanguageDep
from portal.provider.models import Invoice, InvoiceLine, InvoiceType
from portal.provider.schemas.invoices import InvoiceOut, invoice_out
from portal.provider.scoping import one_or_404, scope_to_companies
from portal.provider.security import CurrentPrincipal, Principal

router = APIRouter(prefix="/api/invoices", tags=["invoices"])

_requested_ordering = ordering(
    {
        "dateInvoice": col(Invoice.date_invoice),
        "dateDue": col(Invoice.date_due),
        "reference": col(Invoice.reference),
        "amount": col(Invoice.amount),
    },
    default=[col(Invoice.reference)],
)


def invoice_ordering(request: Request) -> Ordering:
    """The requested order, or the newest invoices first (spec 2: dateInvoice descending)."""
    clauses = _requested_ordering(request)
    if any(name.startswith("order[") for name in request.query_params):
        return clauses
    return [col(Invoice.date_invoice).desc(), *clauses]


def visible_invoices(principal: Principal) -> SelectOfScalar[Invoice]:
    if not principal.allows(ACCESS_INVOICES):
        raise ApiError(403)
    return scope_to_companies(select(Invoice), principal, Invoice.company_id)


@router.get("", response_model=Collection[InvoiceOut])
def list_invoices(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: IncludesDep,
    language: LanguageDep,
    order: Annotated[Ordering, Depends(invoice_ordering)],
    service_uuid: Annotated[
        uuid.UUID | None, Query(alias="lines.services.uuid", description="A billed service.")
    ] = None,
    invoice_type: Annotated[InvoiceType | None, Query(alias="type")] = None,
    is_paid: Annotated[bool | None, Query(alias="isPaid")] = None,
    reference: Annotated[str | None, Query(max_length=100, description="Part of it.")] = None,
    due_after: Annotated[dt.date | None, Query(alias="dateDue[after]")] = None,
    due_before: Annotated[dt.date | None, Query(alias="dateDue[before]")] = None,
) -> Collection[InvoiceOut]:
    """Due dates are inclusive at both ends."""
    statement = visible_invoices(principal)
    if service_uuid is not None:
        billed = select(InvoiceLine.invoice_id).where(InvoiceLine.service_id == service_uuid)
        statement = statement.where(col(Invoice.id).in_(billed))
    if invoice_type is not None:
        statement = statement.where(Invoice.type == invoice_type)
    if is_paid is not None:
        statement = statement.where(Invoice.is_paid == is_paid)
    if reference and reference.strip():
        statement = statement.where(
            func.lower(Invoice.reference).contains(reference.strip().lower(), autoescape=True)
        )
    if due_after is not None:
        statement = statement.where(col(Invoice.date_due) >= due_after)
    if due_before is not None:
        statement = statement.where(col(Invoice.date_due) <= due_before)
    if "company" in includes:
        statement = statement.options(*preload(Invoice.company))
    invoices, total = paginate(db, statement.order_by(*order), page)
    members = [invoice_out(invoice, includes, language) for invoice in invoices]
    return collection(request, "Invoice", members, total, page)


@router.get("/{invoice_id}", response_model=InvoiceOut)
def get_invoice(
    invoice_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: IncludesDep,
    language: LanguageDep,
) -> InvoiceOut:
    statement = visible_invoices(principal).where(Invoice.id == invoice_id)
    return invoice_out(one_or_404(db, statement), includes, language)


@router.get("/{invoice_id}/pdf", response_class=FileResponse)
def download_invoice(
    invoice_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    statement = visible_invoices(principal).where(Invoice.id == invoice_id)
    invoice = one_or_404(db, statement)
    return attachment(
        invoice.pdf_path, invoice.pdf_name or f"{invoice.reference}.pdf", "application/pdf"
    )
