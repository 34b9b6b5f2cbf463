"""Invoices and credit notes (spec 3); amounts excluding and including tax."""

from datetime import date
from decimal import Decimal

from portal.client.models.base import Entity


class Invoice(Entity):
    reference: str = ""
    type: str = ""
    type_label: str = ""
    date_invoice: date | None = None
    date_due: date | None = None
    amount: Decimal = Decimal(0)
    amount_with_tax: Decimal = Decimal(0)
    currency: str = "EUR"
    is_paid: bool = False
    status: str = ""
    status_label: str = ""
    pdf: str | None = None
    pdf_name: str | None = None
