"""The home page's counters (spec 2 and 3: Dashboard; 7: ``GET /api/users/{id}/dashboard``).

Three aggregates whatever the data size: services by status, tickets by status, and the unpaid
invoices' totals that the invoicing screen's tiles show too. Each reads the companies the user
may see through the one scoping helper (docs/decisions/dashboard.md). The one read across
domains (services, support, billing), so it belongs to the app, not to a domain."""

import datetime as dt
import uuid
from decimal import Decimal

import sqlalchemy as sa
from pydantic import Field
from sqlmodel import Session, col, func, select

from portal.permissions import ACCESS_INVOICES, VIEW_TICKETS_MENU
from portal.provider.billing.routes import invoice_summary
from portal.provider.billing.schemas.invoices import CURRENCY
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import Invoice, Service, ServiceStatus, Ticket, TicketStatus
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import (
    company_condition,
    service_condition,
    ticket_condition,
)
from portal.provider.platform.security import CurrentPrincipal, Principal


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


router = ProviderRouter(prefix="/api/users", tags=["users"])


@router.get("/{user_id}/dashboard", response_model=DashboardOut, response_model_exclude_none=True)
def user_dashboard(user_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal) -> DashboardOut:
    """The counters of one's own dashboard; another user's id is not found. The ticket and
    invoice figures are present only to a user who may read tickets and invoices."""
    if user_id != principal.user.id:
        raise ApiError(404)
    active, under_construction = _service_counts(db, principal)
    dashboard = DashboardOut(
        nb_active_services=active, nb_under_construction_services=under_construction
    )
    if principal.allows(VIEW_TICKETS_MENU):
        (
            dashboard.nb_open_tickets,
            dashboard.nb_active_tickets,
            dashboard.nb_closed_tickets,
        ) = _ticket_counts(db, principal)
    if principal.allows(ACCESS_INVOICES):
        today = invoice_summary.business_today()
        unpaid = invoice_summary.unpaid_totals(
            db, company_condition(principal, Invoice.company_id), today
        )
        dashboard.currency, dashboard.date = CURRENCY, today
        dashboard.balance = unpaid.balance
        dashboard.amount_due = unpaid.amount_due
        dashboard.amount_overdue = unpaid.amount_overdue
        dashboard.nb_unpaid_invoices = unpaid.nb_unpaid_invoices
    return dashboard


def _service_counts(db: Session, principal: Principal) -> tuple[int, int]:
    status = col(Service.status)
    counts = dict(
        db.exec(
            select(status, func.count())
            .where(
                service_condition(principal, Service.company_id, Service.id),
                status.in_([ServiceStatus.ACTIVE, ServiceStatus.UNDER_CONSTRUCTION]),
            )
            .group_by(status)
        ).all()
    )
    return counts.get(ServiceStatus.ACTIVE, 0), counts.get(ServiceStatus.UNDER_CONSTRUCTION, 0)


def _ticket_counts(db: Session, principal: Principal) -> tuple[int, int, int]:
    """Open (every status but closed), active and closed, as the tickets screen's tiles."""
    status = col(Ticket.status)
    open_count, active, closed = db.exec(
        select(
            func.count(sa.case((status != TicketStatus.CLOSED, 1))),
            func.count(sa.case((status == TicketStatus.ACTIVE, 1))),
            func.count(sa.case((status == TicketStatus.CLOSED, 1))),
        ).where(ticket_condition(principal))
    ).one()
    return open_count, active, closed
