"""Invoices and credit notes, with their lines (spec section 3: Invoice)."""

import uuid
from datetime import date
from decimal import Decimal
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.provider.platform.models.accounts import Company
from portal.provider.platform.models.columns import enum_type, id_field


class InvoiceType(StrEnum):
    INVOICE = "invoice"
    CREDIT = "credit"


class InvoiceStatus(StrEnum):
    PAID = "paid"
    UNPAID = "unpaid"
    PARTIALLY_PAID = "partiallyPaid"


class InvoiceLine(SQLModel, table=True):
    __tablename__ = "invoice_lines"

    id: uuid.UUID = id_field()
    invoice_id: uuid.UUID = Field(foreign_key="invoices.id", index=True, ondelete="CASCADE")
    service_id: uuid.UUID | None = Field(
        default=None, foreign_key="services.id", index=True, ondelete="SET NULL"
    )
    label: str = Field(max_length=255)
    amount: Decimal = Field(max_digits=12, decimal_places=2)


class Invoice(SQLModel, table=True):
    __tablename__ = "invoices"
    # A customer's list is read one company at a time in the order shown (newest first, or by
    # due date), its filters and the summary's sums from the index alone on PostgreSQL
    # (INCLUDE): docs/decisions/deep-invoice-pages.md. Staff lists use the indexes without the
    # company.
    __table_args__ = (
        sa.Index(
            "ix_invoices_company_id_date_invoice",
            "company_id",
            "date_invoice",
            "reference",
            postgresql_include=["id", "type", "is_paid", "date_due", "amount_with_tax", "paid"],
        ),
        sa.Index(
            "ix_invoices_company_id_date_due",
            "company_id",
            "date_due",
            "reference",
            postgresql_include=["id", "type", "is_paid", "date_invoice"],
        ),
        # Unpaid invoices only (a few per cent of the rows): the summary's tiles, and the unpaid
        # list by due date, whose rows are the newest and would be sought far in the others.
        sa.Index(
            "ix_invoices_unpaid",
            "company_id",
            "date_due",
            "reference",
            postgresql_include=["id", "type", "date_invoice", "amount_with_tax", "paid"],
            postgresql_where=sa.text("NOT is_paid"),
            sqlite_where=sa.text("NOT is_paid"),
        ),
        sa.Index("ix_invoices_date_invoice_reference", "date_invoice", "reference"),
        sa.Index("ix_invoices_date_due_reference", "date_due", "reference"),
        # The reference filter (a fragment, any case) on PostgreSQL: migration 0009.
        sa.Index(
            "ix_invoices_reference_trgm",
            "reference",
            postgresql_using="gin",
            postgresql_ops={"reference": "gin_trgm_ops"},
        ),
    )

    id: uuid.UUID = id_field()
    reference: str = Field(max_length=100, unique=True, index=True)
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True)
    type: InvoiceType = Field(sa_type=enum_type(InvoiceType), index=True)
    date_created: date
    date_invoice: date
    date_due: date
    date_start: date | None = None
    date_end: date | None = None
    period: str | None = Field(default=None, max_length=50)
    # Amounts in euros; ``amount`` excludes tax, ``paid`` is the amount paid so far.
    amount: Decimal = Field(max_digits=12, decimal_places=2)
    amount_with_tax: Decimal = Field(max_digits=12, decimal_places=2)
    paid: Decimal = Field(default=Decimal("0.00"), max_digits=12, decimal_places=2)
    is_paid: bool = Field(default=False, index=True)
    status: InvoiceStatus = Field(sa_type=enum_type(InvoiceStatus), index=True)
    pdf_path: str | None = Field(default=None, max_length=500)
    pdf_name: str | None = Field(default=None, max_length=255)

    company: Company = Relationship()
    lines: list[InvoiceLine] = Relationship(cascade_delete=True)
