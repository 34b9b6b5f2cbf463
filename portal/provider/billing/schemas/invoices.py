"""Invoices and credit notes as the API shows them (spec sections 3 and 4: Invoice)."""

import datetime as dt
import uuid
from decimal import Decimal
from typing import Annotated

from fastapi import Depends
from pydantic import Field

from portal.i18n import N_, gettext
from portal.provider.platform.embeds import CompanyRef, company_iri, company_ref
from portal.provider.platform.hydra import ApiModel, Resource, embeddable, iri
from portal.provider.platform.models import Invoice, InvoiceLine, InvoiceStatus, InvoiceType

CURRENCY = "EUR"
TYPE_LABELS = {InvoiceType.INVOICE: N_("Invoice"), InvoiceType.CREDIT: N_("Credit note")}
STATUS_LABELS = {
    InvoiceStatus.PAID: N_("Paid"),
    InvoiceStatus.UNPAID: N_("Unpaid"),
    InvoiceStatus.PARTIALLY_PAID: N_("Partially paid"),
}


class BilledService(ApiModel):
    """The service an invoice line bills: what the list's ``lines.services.uuid`` filter reads."""

    iri: str = Field(alias="@id")
    uuid: str


class InvoiceLineOut(ApiModel):
    type: str = Field(default="InvoiceLine", alias="@type")
    label: str
    amount: Decimal = Field(description="Excluding tax, in euros.")
    services: list[BilledService] = Field(
        description="The service billed, when the reader may read it; empty otherwise."
    )


class InvoiceOut(Resource):
    type: str = Field(default="Invoice", alias="@type")
    reference: str
    invoice_type: str = Field(alias="type")
    type_label: str
    company: CompanyRef | str
    date_created: dt.date
    date_invoice: dt.date
    date_due: dt.date
    date_start: dt.date | None
    date_end: dt.date | None
    period: str | None
    amount: Decimal = Field(description="Excluding tax, in euros.")
    amount_with_tax: Decimal
    paid: Decimal = Field(description="Amount paid so far.")
    currency: str = CURRENCY
    is_paid: bool
    status: str
    status_label: str
    pdf: str | None = Field(description="Download path of the PDF, when there is one.")
    pdf_name: str | None
    lines: list[InvoiceLineOut] | None = Field(
        default=None, description="Sent by the item route only (docs/decisions/invoice-lines.md)."
    )


def invoice_line_out(line: InvoiceLine, service_id: uuid.UUID | None) -> InvoiceLineOut:
    """``service_id``: the line's service when the reader may read it, else None."""
    services = (
        [BilledService(iri=iri("services", service_id), uuid=str(service_id))] if service_id else []
    )
    return InvoiceLineOut(label=line.label, amount=line.amount, services=services)


def invoice_pdf_path(invoice: Invoice) -> str:
    return f"{iri('invoices', invoice.id)}/pdf"


# What ``invoice_out`` embeds instead of an IRI: ``includes[]=company``.
InvoiceIncludes = Annotated[frozenset[str], Depends(embeddable("company"))]


def invoice_out(
    invoice: Invoice,
    includes: frozenset[str],
    language: str,
    lines: list[InvoiceLineOut] | None = None,
) -> InvoiceOut:
    return InvoiceOut(
        iri=iri("invoices", invoice.id),
        id=str(invoice.id),
        reference=invoice.reference,
        invoice_type=invoice.type,
        type_label=gettext(language, TYPE_LABELS[invoice.type]),
        company=company_ref(invoice.company)
        if "company" in includes
        else company_iri(invoice.company_id),
        date_created=invoice.date_created,
        date_invoice=invoice.date_invoice,
        date_due=invoice.date_due,
        date_start=invoice.date_start,
        date_end=invoice.date_end,
        period=invoice.period,
        amount=invoice.amount,
        amount_with_tax=invoice.amount_with_tax,
        paid=invoice.paid,
        is_paid=invoice.is_paid,
        status=invoice.status,
        status_label=gettext(language, STATUS_LABELS[invoice.status]),
        pdf=invoice_pdf_path(invoice) if invoice.pdf_path else None,
        pdf_name=invoice.pdf_name,
        lines=lines,
    )


class BilledMonth(ApiModel):
    month: str = Field(description="YYYY-MM, by invoice date.")
    invoiced: Decimal = Field(
        description="Invoices less credit notes issued that month, tax included, in euros."
    )
    paid: Decimal = Field(description="What has been paid of them so far, in euros.")


class InvoiceSummaryOut(ApiModel):
    """The invoicing screen's tiles and chart (docs/decisions/invoice-summary.md)."""

    type: str = Field(default="InvoiceSummary", alias="@type")
    currency: str = CURRENCY
    date: dt.date = Field(description="The day the provider calls today: overdue means due before.")
    balance: Decimal = Field(
        description="Left to pay on every unsettled invoice and credit note (negative: owed to "
        "the customer)."
    )
    amount_due: Decimal = Field(description="Left to pay on the unpaid invoices.")
    amount_overdue: Decimal = Field(description="Of which due before today.")
    nb_unpaid_invoices: int = Field(description="Unpaid invoices (credit notes excluded).")
    months: list[BilledMonth] = Field(description="The last 24 months, oldest first.")
