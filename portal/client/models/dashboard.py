"""The home page's counters (``GET /api/users/{id}/dashboard``)."""

import datetime as dt
from decimal import Decimal

from portal.client.models.base import ProviderModel


class Dashboard(ProviderModel):
    """What the dashboard's tiles show. The ticket and invoice figures are ``None`` when the
    user may not read tickets or invoices: the provider leaves them out rather than say 0."""

    nb_active_services: int = 0
    nb_under_construction_services: int = 0
    nb_open_tickets: int | None = None
    nb_active_tickets: int | None = None
    nb_closed_tickets: int | None = None
    currency: str = "EUR"
    date: dt.date | None = None  # the provider's today: overdue means due before it
    balance: Decimal | None = None
    amount_due: Decimal | None = None
    amount_overdue: Decimal | None = None
    nb_unpaid_invoices: int | None = None
