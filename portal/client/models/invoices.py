"""Invoices and credit notes (spec 3); amounts excluding and including tax, as exact decimals
(never floats: the provider writes them as strings, and numbers are read as decimals too)."""

import datetime as dt
from decimal import Decimal
from typing import Annotated, Literal

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company


class InvoiceLine(ProviderModel):
    """What one line bills, excluding tax; ``services`` holds the billed service when the
    reader may read it (spec 3: "lines with services uuid")."""

    label: str = ""
    amount: Decimal = Decimal(0)
    services: list[Entity] = []

    @property
    def service_ids(self) -> list[str]:
        return [service.id for service in self.services]


class Invoice(Entity):
    reference: str = ""
    type: str = ""
    type_label: str = ""
    # An IRI, or the company itself with ``includes=("company",)``.
    company: Company | None = None
    date_created: dt.date | None = None
    date_invoice: dt.date | None = None
    date_due: dt.date | None = None
    # The period billed, e.g. "October 2026", from ``date_start`` to ``date_end``.
    date_start: dt.date | None = None
    date_end: dt.date | None = None
    period: str | None = None
    amount: Decimal = Decimal(0)
    amount_with_tax: Decimal = Decimal(0)
    paid: Decimal = Decimal(0)
    currency: str = "EUR"
    is_paid: bool = False
    status: str = ""
    status_label: str = ""
    pdf: str | None = None
    pdf_name: str | None = None
    # Sent with one invoice only (``invoices.get``); None in lists.
    lines: list[InvoiceLine] | None = None


class InvoiceFilters(Filters):
    """The invoice filters (spec 2): the invoicing screen's, and a service page's own."""

    ranges = (("due_after", "due_before"),)

    service_uuid: Annotated[str, Param("lines.services.uuid")] = ""
    type: Annotated[Literal["invoice", "credit"] | None, Param("type")] = None
    is_paid: Annotated[bool | None, Param("isPaid")] = None
    reference: Annotated[str, Param("reference")] = ""
    due_after: Annotated[dt.date | None, Param("dateDue[after]", url="dateDueAfter")] = None
    due_before: Annotated[dt.date | None, Param("dateDue[before]", url="dateDueBefore")] = None


class BilledMonth(ProviderModel):
    """One month of the invoicing chart: invoiced (net of credit notes) and paid, tax included."""

    month: str  # YYYY-MM
    invoiced: Decimal = Decimal(0)
    paid: Decimal = Decimal(0)


class InvoiceSummary(ProviderModel):
    """The invoicing screen's tiles and chart (``GET /api/invoices/summary``)."""

    currency: str = "EUR"
    date: dt.date | None = None  # the provider's today: overdue means due before it
    balance: Decimal = Decimal(0)
    amount_due: Decimal = Decimal(0)
    amount_overdue: Decimal = Decimal(0)
    nb_unpaid_invoices: int = 0
    months: list[BilledMonth] = []
