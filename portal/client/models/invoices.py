"""Invoices and credit notes (spec 3); amounts excluding and including tax."""

from datetime import date
from decimal import Decimal
from typing import Annotated, Literal

from portal.client.filters import Filters, Param
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


class InvoiceFilters(Filters):
    """The invoice filters (spec 2): the invoicing screen's, and a service page's own."""

    service_uuid: Annotated[str, Param("lines.services.uuid")] = ""
    type: Annotated[Literal["invoice", "credit"] | None, Param("type")] = None
    is_paid: Annotated[bool | None, Param("isPaid")] = None
    reference: Annotated[str, Param("reference")] = ""
    due_after: Annotated[date | None, Param("dateDue[after]", url="dateDueAfter")] = None
    due_before: Annotated[date | None, Param("dateDue[before]", url="dateDueBefore")] = None
