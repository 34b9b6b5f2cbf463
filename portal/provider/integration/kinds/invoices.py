"""Invoices and credit notes, keyed on their reference, with their lines; the PDF is uploaded to
``/api/integration/invoices/{reference}/pdf`` once the invoice exists."""

from collections import Counter
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field
from sqlmodel import Session

from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    InputModel,
    OptionalText,
    Reference,
    Text,
    duplicates,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.hydra import IsoDate
from portal.provider.platform.models import (
    Company,
    Invoice,
    InvoiceLine,
    InvoiceStatus,
    InvoiceType,
    Service,
)

Amount = Annotated[Decimal, Field(max_digits=12, decimal_places=2)]


class LineIn(InputModel):
    label: Text = Field(max_length=255)
    amount: Amount = Field(description="Excluding tax, in euros.")
    service: Reference | None = Field(default=None, description="Reference of the service.")


class InvoiceIn(InputModel):
    reference: Reference = Field(description="The provider's own reference: the key.")
    company: Reference = Field(description="Reference of the invoiced company.")
    type: InvoiceType = Field(description="`invoice` or `credit` (a credit note).")
    date_invoice: IsoDate
    date_due: IsoDate
    date_created: IsoDate | None = Field(default=None, description="Defaults to dateInvoice.")
    date_start: IsoDate | None = None
    date_end: IsoDate | None = None
    period: OptionalText = Field(default=None, max_length=50, examples=["2026-10"])
    amount: Amount = Field(description="Excluding tax, in euros.")
    amount_with_tax: Amount
    paid: Amount = Field(default=Decimal("0.00"), description="Amount paid so far.")
    status: InvoiceStatus
    is_paid: bool | None = Field(default=None, description="Defaults to status = paid.")
    lines: list[LineIn] | None = None


def check(db: Session, entries: Entries[InvoiceIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    invoices = rows_by(
        db, Invoice.reference, (item.reference for item in items), preload(Invoice.lines)
    )
    companies = rows_by(db, Company.reference, (item.company for item in items))
    service_refs = {line.service for item in items for line in item.lines or () if line.service}
    services = rows_by(db, Service.reference, service_refs)
    for index, item in entries:
        violations += unknown(index, "company", item.company, companies)
        for position, line in enumerate(item.lines or ()):
            if line.service:
                violations += unknown(index, f"lines[{position}].service", line.service, services)
    return (invoices, companies, services), violations


def write(db: Session, entries: Entries[InvoiceIn], resolved: Any) -> Counts:
    invoices, companies, services = resolved
    counts = Counts()
    for _, item in entries:
        invoice = invoices.get(item.reference)
        values = {
            "reference": item.reference,
            "company_id": companies[item.company].id,
            **item.values("type", "date_invoice", "date_due", "amount", "amount_with_tax"),
            **item.values("status", "date_created", "date_start", "date_end", "period", "paid"),
        }
        paid = item.status is InvoiceStatus.PAID
        values["is_paid"] = paid if item.is_paid is None else item.is_paid
        if invoice is None:
            values["date_created"] = item.date_created or item.date_invoice
        invoice, created, changed = upsert_row(Invoice, invoice, values)
        if item.lines is not None:
            wanted = [
                (line.label, line.amount, services[line.service].id if line.service else None)
                for line in item.lines
            ]
            stored = [(line.label, line.amount, line.service_id) for line in invoice.lines]
            if Counter(stored) != Counter(wanted):
                invoice.lines = [
                    InvoiceLine(
                        invoice_id=invoice.id, label=label, amount=amount, service_id=service_id
                    )
                    for label, amount, service_id in wanted
                ]
                changed = True
        db.add(invoice)
        counts.add(created, changed)
    return counts


KIND = Kind(
    name="invoice",
    path="invoices",
    model=InvoiceIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update invoices and credit notes",
    description="Upsert up to 1 000 invoices or credit notes keyed on `reference`, with their "
    "lines (replaced when sent). Upload each PDF afterwards.",
    example=[
        {
            "reference": "INV-2026-10-0042",
            "company": "C-1001",
            "type": "invoice",
            "dateInvoice": "2026-10-01",
            "dateDue": "2026-10-31",
            "period": "2026-10",
            "amount": "1250.00",
            "amountWithTax": "1500.00",
            "status": "unpaid",
            "lines": [
                {"label": "IP transit 10G, October", "amount": "1250.00", "service": "PB-IPT-24017"}
            ],
        }
    ],
)
