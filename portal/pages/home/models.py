"""The dashboard's figures as its tiles show them, with the filtered list each one opens."""

from pydantic import BaseModel

from portal import routes
from portal.client.models import Dashboard
from portal.components.services.query import status_list_url
from portal.components.ticket_status import NOT_CLOSED
from portal.components.tickets.query import tickets_url


class DashboardTiles(BaseModel):
    active_services: int = 0
    services_under_construction: int = 0
    open_tickets: int = 0
    active_tickets: int = 0
    closed_tickets: int = 0
    shows_tickets: bool = False
    shows_invoices: bool = False
    active_services_url: str = status_list_url(routes.SERVICES.path, "active")
    construction_url: str = status_list_url(routes.SERVICES.path, "under_construction")
    open_tickets_url: str = tickets_url(routes.TICKETS.path, list(NOT_CLOSED))
    active_tickets_url: str = tickets_url(routes.TICKETS.path, ["active"])
    closed_tickets_url: str = tickets_url(routes.TICKETS.path, ["closed"])

    @classmethod
    def of(cls, dashboard: Dashboard) -> "DashboardTiles":
        return cls(
            active_services=dashboard.nb_active_services,
            services_under_construction=dashboard.nb_under_construction_services,
            open_tickets=dashboard.nb_open_tickets or 0,
            active_tickets=dashboard.nb_active_tickets or 0,
            closed_tickets=dashboard.nb_closed_tickets or 0,
            shows_tickets=dashboard.nb_open_tickets is not None,
            shows_invoices=dashboard.amount_due is not None,
        )
