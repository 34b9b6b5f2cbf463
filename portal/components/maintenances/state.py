"""The maintenance table's state: paged and always sorted, filtered on a service reference
when a service page shows it; the dialog's full maintenance is fetched when opened."""

import reflex as rx

from portal.components.data_table import ALL_ROWS, PagedTableState
from portal.components.maintenances.models import MaintenanceDetail, MaintenanceRow
from portal.components.paging import DESCENDING
from portal.state.failures import reports_failures
from portal.state.session import SessionState

SORT_FIELDS = ("dateStart", "dateEnd", "dateNotification")
PAGE_SIZES = (10, ALL_ROWS)


class MaintenancesState(PagedTableState, SessionState):
    sort_field: rx.Field[str] = rx.field("dateStart")
    sort_direction: rx.Field[str] = rx.field(DESCENDING)
    service_reference: rx.Field[str] = rx.field("")
    rows: rx.Field[list[MaintenanceRow]] = rx.field(default_factory=list)
    dialog_open: rx.Field[bool] = rx.field(False)
    detail_loading: rx.Field[bool] = rx.field(False)
    detail: rx.Field[MaintenanceDetail] = rx.field(default_factory=MaintenanceDetail)

    @rx.event
    def show_for_service(self, reference: str):
        """The maintenances impacting one service, from their first page."""
        self.service_reference = reference
        self.page = 1
        self.rows = []
        return MaintenancesState.refresh

    @rx.event
    @reports_failures
    async def refresh(self):
        self.loading = True
        yield
        try:
            result = await (await self.provider()).maintenances.list(
                page=self.page,
                items_per_page=self.items_per_page,
                order=self._paging().order,
                service_reference=self.service_reference or None,
            )
        finally:
            self.loading = False
        language = self.current_language
        self.rows = [MaintenanceRow.of(maintenance, language) for maintenance in result.items]
        self.total = result.total

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
        self.detail = MaintenanceDetail.full(maintenance, self.current_language)

    @rx.event
    def set_dialog_open(self, value: bool):
        self.dialog_open = value
