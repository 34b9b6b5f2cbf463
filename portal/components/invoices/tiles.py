"""The invoice tiles (spec 2: Invoices, Dashboard): balance, amount due, amount overdue and the
count to pay, in euros per locale, each linking to the invoices it sums up. The invoicing screen
and the dashboard show the same four."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Protocol
from zoneinfo import ZoneInfo

import reflex as rx
from pydantic import BaseModel
from reflex.vars import ObjectVar

from portal import routes
from portal.client.models import InvoiceFilters
from portal.components.i18n import _
from portal.components.invoices.query import INVOICES_URL
from portal.components.tiles import count_tile
from portal.i18n import format_amount
from portal.settings import get_settings


class UnpaidFigures(Protocol):
    """What the provider says is left to pay: its invoice summary or a dashboard."""

    @property
    def currency(self) -> str: ...
    @property
    def date(self) -> date | None: ...
    @property
    def balance(self) -> Decimal | None: ...
    @property
    def amount_due(self) -> Decimal | None: ...
    @property
    def amount_overdue(self) -> Decimal | None: ...
    @property
    def nb_unpaid_invoices(self) -> int | None: ...


def _billing_today() -> date:
    """The provider's day for billing (``BILLING_TIMEZONE``), which the provider counts overdue
    invoices by: the server's own day may be another one."""
    return datetime.now(ZoneInfo(get_settings().billing_timezone)).date()


class InvoiceTiles(BaseModel):
    balance: str = ""
    amount_due: str = ""
    amount_overdue: str = ""
    to_pay: int = 0
    balance_url: str = ""
    due_url: str = ""
    overdue_url: str = ""

    @classmethod
    def of(cls, summary: UnpaidFigures, language: str) -> "InvoiceTiles":
        path = routes.INVOICES.path
        unpaid = InvoiceFilters(is_paid=False)
        due = unpaid.model_copy(update={"type": "invoice"})
        today = summary.date or _billing_today()
        overdue = due.model_copy(update={"due_before": today - timedelta(days=1)})
        return cls(
            balance=format_amount(summary.balance or 0, language, summary.currency),
            amount_due=format_amount(summary.amount_due or 0, language, summary.currency),
            amount_overdue=format_amount(summary.amount_overdue or 0, language, summary.currency),
            to_pay=summary.nb_unpaid_invoices or 0,
            balance_url=INVOICES_URL.url(path, unpaid),
            due_url=INVOICES_URL.url(path, due),
            overdue_url=INVOICES_URL.url(path, overdue),
        )


def invoice_tiles(tiles: ObjectVar[InvoiceTiles], loading: rx.Var[bool]) -> rx.Component:
    """At 12/6/4/3 columns (spec 2): one, two, three, four a row."""
    return rx.grid(
        count_tile(
            _("Balance"),
            tiles.balance,
            tiles.balance_url,
            icon="scale",
            color="purple",
            loading=loading,
            test_id="tile-balance",
        ),
        count_tile(
            _("Amount due"),
            tiles.amount_due,
            tiles.due_url,
            icon="receipt-euro",
            color="orange",
            loading=loading,
            test_id="tile-amount-due",
        ),
        count_tile(
            _("Amount overdue"),
            tiles.amount_overdue,
            tiles.overdue_url,
            icon="triangle-alert",
            color="red",
            loading=loading,
            test_id="tile-amount-overdue",
        ),
        count_tile(
            _("Invoices to pay"),
            tiles.to_pay,
            tiles.due_url,
            icon="file-clock",
            color="gray",
            loading=loading,
            test_id="tile-to-pay",
        ),
        columns=rx.breakpoints(initial="1", sm="2", md="3", lg="4"),
        spacing=rx.breakpoints(initial="2", sm="4"),
        width="100%",
    )
