"""The home page's counters (spec 3: Dashboard)."""

import datetime as dt
from decimal import Decimal

from pydantic import Field

from portal.provider.hydra import ApiModel


class DashboardOut(ApiModel):
    """What the dashboard's tiles show. The ticket and invoice figures are absent, not zero,
    for a user who may not read tickets or invoices (docs/decisions/dashboard.md)."""

    type: str = Field(default="Dashboard", alias="@type")
    nb_active_services: int
    nb_under_construction_services: int
    nb_open_tickets: int | None = Field(
        default=None, description="Tickets in every status but closed."
    )
    nb_active_tickets: int | None = None
    nb_closed_tickets: int | None = None
    currency: str | None = Field(default=None, description="Of the amounts, when present.")
    date: dt.date | None = Field(
        default=None,
        description="The provider's today, with the amounts: overdue means due before.",
    )
    balance: Decimal | None = Field(
        default=None, description="Left to pay on every unsettled invoice and credit note."
    )
    amount_due: Decimal | None = Field(default=None, description="Left to pay on unpaid invoices.")
    amount_overdue: Decimal | None = Field(default=None, description="Of which due before today.")
    nb_unpaid_invoices: int | None = Field(default=None, description="Unpaid invoices.")
