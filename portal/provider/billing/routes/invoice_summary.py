"""The invoicing screen's tiles and chart (spec 2: Invoices; docs/decisions/invoice-summary.md):
what is left to pay, due and overdue, and what was invoiced and paid in each of the last 24
months. Scoped and guarded like the list: the principal's companies, access Invoice needed."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, func, select

from portal.provider.billing.queries import require_invoice_access
from portal.provider.billing.schemas.invoices import BilledMonth, InvoiceSummaryOut
from portal.provider.platform.db import SessionDep
from portal.provider.platform.models import Invoice, InvoiceType
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import company_condition
from portal.provider.platform.security import CurrentPrincipal
from portal.settings import get_settings

router = ProviderRouter(prefix="/api/invoices", tags=["invoices"])

MONTHS = 24
CENT = Decimal("0.01")


def business_today() -> dt.date:
    """Today in the provider's time zone: an invoice due yesterday there is overdue."""
    return dt.datetime.now(ZoneInfo(get_settings().billing_timezone)).date()


def month_start(day: dt.date, months_back: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 - months_back
    return dt.date(index // 12, index % 12 + 1, 1)


class _Sums:
    """Exact sums and month keys in the database's own terms. PostgreSQL adds ``numeric``
    values exactly; SQLite keeps NUMERIC values as binary floating point, whose sums drift, so
    there amounts are summed as whole cents (integers)."""

    def __init__(self, dialect: str) -> None:
        self.postgresql = dialect == "postgresql"

    def amount(self, column: Any) -> Any:
        return column if self.postgresql else sa.cast(func.round(column * 100), sa.BigInteger)

    def total(self, expression: Any) -> Any:
        return func.coalesce(func.sum(expression), 0)

    def euros(self, total: Decimal | int | None) -> Decimal:
        value = Decimal(total or 0) if self.postgresql else Decimal(int(total or 0)) / 100
        return value.quantize(CENT)

    def month(self, column: Any) -> Any:
        """The first day of the month of a date column (a date, or ``YYYY-MM-01`` text)."""
        if self.postgresql:
            return sa.cast(func.date_trunc("month", column), sa.Date)
        return func.strftime("%Y-%m-01", column)


@dataclass(frozen=True)
class UnpaidTotals:
    """What is left to pay, in euros, and how many invoices are unpaid (spec 2: Invoices)."""

    balance: Decimal
    amount_due: Decimal
    amount_overdue: Decimal
    nb_unpaid_invoices: int


def unpaid_totals(db: Session, scope: ColumnElement[bool], today: dt.date) -> UnpaidTotals:
    """The tiles of the invoicing screen and the dashboard, in one aggregate over the unpaid
    invoices of ``scope``: balance (credit notes included), amount due (invoices only), amount
    overdue (due before ``today``) and the count of invoices to pay."""
    sums = _Sums(db.get_bind().dialect.name)
    left = sums.amount(Invoice.amount_with_tax) - sums.amount(Invoice.paid)
    is_invoice = col(Invoice.type) == InvoiceType.INVOICE
    overdue = sa.and_(is_invoice, col(Invoice.date_due) < today)
    balance, due, overdue_amount, unpaid = db.exec(
        select(
            sums.total(left),
            sums.total(sa.case((is_invoice, left), else_=0)),
            sums.total(sa.case((overdue, left), else_=0)),
            func.count(sa.case((is_invoice, 1))),
        ).where(scope, col(Invoice.is_paid) == sa.false())
    ).one()
    return UnpaidTotals(
        balance=sums.euros(balance),
        amount_due=sums.euros(due),
        amount_overdue=sums.euros(overdue_amount),
        nb_unpaid_invoices=unpaid,
    )


@router.get("/summary", response_model=InvoiceSummaryOut)
def invoice_summary(db: SessionDep, principal: CurrentPrincipal) -> InvoiceSummaryOut:
    """Balance, amount due and overdue, number of unpaid invoices, and the amounts invoiced and
    paid per month over the last 24 months (every month present, oldest first)."""
    require_invoice_access(principal)
    today = business_today()
    sums = _Sums(db.get_bind().dialect.name)
    scope = company_condition(principal, Invoice.company_id)
    unpaid = unpaid_totals(db, scope, today)

    first, end = month_start(today, MONTHS - 1), month_start(today, -1)
    month = sums.month(col(Invoice.date_invoice))
    totals = {
        str(start)[:7]: (invoiced, paid)
        for start, invoiced, paid in db.exec(
            select(
                month,
                sums.total(sums.amount(Invoice.amount_with_tax)),
                sums.total(sums.amount(Invoice.paid)),
            )
            .where(scope, col(Invoice.date_invoice) >= first, col(Invoice.date_invoice) < end)
            .group_by(month)
        )
    }
    months = []
    for back in range(MONTHS - 1, -1, -1):
        key = f"{month_start(today, back):%Y-%m}"
        invoiced, paid = totals.get(key, (0, 0))
        months.append(BilledMonth(month=key, invoiced=sums.euros(invoiced), paid=sums.euros(paid)))
    return InvoiceSummaryOut(
        date=today,
        balance=unpaid.balance,
        amount_due=unpaid.amount_due,
        amount_overdue=unpaid.amount_overdue,
        nb_unpaid_invoices=unpaid.nb_unpaid_invoices,
        months=months,
    )
