"""The maintenances of a list: paged and always sorted, newest start first; the dialog's full
maintenance is fetched when opened."""

from typing import Any, ClassVar

import reflex as rx

from portal.client import Page, ProviderClient
from portal.client.models import MaintenanceFilters
from portal.components.maintenances.models import MaintenanceDetail, MaintenanceRow
from portal.components.maintenances.query import MAINTENANCES_URL
from portal.components.paging import Paging
from portal.list_query import ListUrl
from portal.state.failures import reports_failures
from portal.state.lists import ListState


class MaintenanceList(ListState, mixin=True):
    """A list of maintenances and its dialog; each page using one subclasses it."""

    url: ClassVar[ListUrl[MaintenanceFilters]] = MAINTENANCES_URL
    filters: rx.Field[MaintenanceFilters] = rx.field(default_factory=MaintenanceFilters)
    rows: rx.Field[list[MaintenanceRow]] = rx.field(default_factory=list)
    dialog_open: rx.Field[bool] = rx.field(False)
    detail_loading: rx.Field[bool] = rx.field(False)
    detail: rx.Field[MaintenanceDetail] = rx.field(default_factory=MaintenanceDetail)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        page = await client.maintenances.list(self.filters, **paging.arguments())
        language = self.current_language
        zone = self.time_zone
        self.rows = [MaintenanceRow.of(maintenance, language, zone) for maintenance in page.items]
        return page

    @rx.event
    @reports_failures
    async def open_maintenance(self, maintenance_id: str):
        """Opens the dialog at once with what the row knows; the rest arrives with the call."""
        known = next((row for row in self.rows if row.id == maintenance_id), None)
        self.detail = MaintenanceDetail(**known.model_dump()) if known else MaintenanceDetail()
        self.dialog_open = self.detail_loading = True
        yield
        try:
            maintenance = await (await self.provider()).maintenances.get(maintenance_id)
        finally:
            self.detail_loading = False
        self.detail = MaintenanceDetail.full(maintenance, self.current_language, self.time_zone)

    @rx.event
    def set_dialog_open(self, value: bool):
        self.dialog_open = value
