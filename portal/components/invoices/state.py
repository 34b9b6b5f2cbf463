"""The invoice table's state: page sizes 10 and 25, sorted on the invoice date, newest first
by default (spec 2), optionally limited to the invoices of one service."""

import reflex as rx

from portal.components.data_table import PagedTableState
from portal.components.invoices.models import InvoiceRow
from portal.components.paging import DESCENDING
from portal.state.failures import reports_failures
from portal.state.session import SessionState

PAGE_SIZES = (10, 25)


class InvoicesTableState(PagedTableState, SessionState):
    sort_field: rx.Field[str] = rx.field("dateInvoice")
    sort_direction: rx.Field[str] = rx.field(DESCENDING)
    service_uuid: rx.Field[str] = rx.field("")
    rows: rx.Field[list[InvoiceRow]] = rx.field(default_factory=list)

    @rx.event
    def show_for_service(self, service_uuid: str):
        self.service_uuid = service_uuid
        self.page = 1
        self.rows = []
        return InvoicesTableState.refresh

    @rx.event
    @reports_failures
    async def refresh(self):
        self.loading = True
        yield
        try:
            result = await (await self.provider()).invoices.list(
                page=self.page,
                items_per_page=self.items_per_page,
                order=self._paging().order,
                service_uuid=self.service_uuid or None,
            )
        finally:
            self.loading = False
        language = self.current_language
        self.rows = [InvoiceRow.of(invoice, language) for invoice in result.items]
        self.total = result.total
