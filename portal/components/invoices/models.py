"""An invoice as the table shows it: dates and amounts formatted in the user's language."""

from pydantic import BaseModel

from portal import routes
from portal.client.models import Invoice
from portal.connections import backend_url
from portal.i18n import format_amount, format_day


class InvoiceRow(BaseModel):
    id: str = ""
    reference: str = ""
    type: str = ""
    type_label: str = ""
    date_invoice: str = ""
    date_due: str = ""
    amount: str = ""
    amount_with_tax: str = ""
    is_paid: bool = False
    pdf_url: str = ""
    pdf_name: str = ""

    @classmethod
    def of(cls, invoice: Invoice, language: str) -> "InvoiceRow":
        # Amounts are in euros whatever the language (spec 9); only their writing changes.
        return cls(
            id=invoice.id,
            reference=invoice.reference,
            type=invoice.type,
            type_label=invoice.type_label or invoice.type,
            date_invoice=format_day(invoice.date_invoice, language),
            date_due=format_day(invoice.date_due, language),
            amount=format_amount(invoice.amount, language, "EUR"),
            amount_with_tax=format_amount(invoice.amount_with_tax, language, "EUR"),
            is_paid=invoice.is_paid,
            pdf_url=backend_url(routes.file_path(invoice.pdf)) if invoice.pdf else "",
            pdf_name=invoice.pdf_name or f"{invoice.reference}.pdf",
        )
