"""The dashboard (spec 2: Dashboard): the counters of the user's own dashboard, the last
tickets and the maintenances, each loaded and failing on its own."""

from typing import ClassVar

import reflex as rx

from portal.client import ProviderError
from portal.client.models import MaintenanceFilters, TicketFilters
from portal.components.invoices.tiles import InvoiceTiles
from portal.components.maintenances.browser_state import MaintenanceBrowser
from portal.components.maintenances.query import DASHBOARD_MAINTENANCES_URL
from portal.components.tickets.query import LAST_TICKETS_URL
from portal.components.tickets.state import TicketList
from portal.list_query import ListUrl
from portal.pages.home.models import DashboardTiles
from portal.permissions import VIEW_TICKETS_MENU
from portal.state.failures import reports_failures
from portal.state.messages import failure_text
from portal.state.session import SessionState


class DashboardState(SessionState):
    tiles: rx.Field[DashboardTiles] = rx.field(default_factory=DashboardTiles)
    invoice_tiles: rx.Field[InvoiceTiles] = rx.field(default_factory=InvoiceTiles)
    counting: rx.Field[bool] = rx.field(True)
    # Why the figures could not be loaded, said in their place (empty once they are); the
    # tables below load and fail on their own.
    failure: rx.Field[str] = rx.field("")

    @rx.event
    @reports_failures(in_place=True)
    async def load(self):
        if not self._page_open():
            return
        self.counting, self.failure = True, ""
        yield
        try:
            dashboard = await (await self.provider()).users.dashboard(self.user_id)
        except ProviderError as error:
            self.failure = failure_text(error, self.current_language)
            raise
        finally:
            self.counting = False
        self.tiles = DashboardTiles.of(dashboard)
        if self.tiles.shows_invoices:
            self.invoice_tiles = InvoiceTiles.of(dashboard, self.current_language)


class LastTicketsState(TicketList, SessionState):
    url: ClassVar[ListUrl[TicketFilters]] = LAST_TICKETS_URL
    in_address = False

    @rx.event
    @reports_failures
    async def show_last(self):
        """The five newest tickets, once the page is open to a user who may read them."""
        if self._page_open() and self._holds(VIEW_TICKETS_MENU):
            async for update in self._open_with(TicketFilters()):
                yield update


class DashboardMaintenancesState(MaintenanceBrowser, SessionState):
    url: ClassVar[ListUrl[MaintenanceFilters]] = DASHBOARD_MAINTENANCES_URL
    in_address = False

    @rx.event
    @reports_failures
    async def show_last(self):
        """The maintenances newest start first, five to a page."""
        if self._page_open():
            async for update in self._open_with(MaintenanceFilters()):
                yield update
