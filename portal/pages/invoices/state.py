"""Invoicing (spec 2, Invoices): tiles and the 24-month chart loaded once when the screen
opens, then the invoices as the URL's filters ask (reference, type, paid, due-date range)."""

from typing import Any

import reflex as rx

from portal.client import ProviderClient
from portal.components.charts import figure_json
from portal.components.invoices.state import InvoiceList
from portal.pages.invoices.models import InvoiceTiles, billing_chart
from portal.state.failures import reports_failures
from portal.state.session import SessionState

DUE_AFTER, DUE_BEFORE = "due_after", "due_before"


class InvoicesState(InvoiceList, SessionState):
    tiles: rx.Field[InvoiceTiles] = rx.field(default_factory=InvoiceTiles)
    chart: rx.Field[dict[str, Any]] = rx.field(default_factory=dict)
    summing: rx.Field[bool] = rx.field(True)

    async def _open(self, client: ProviderClient) -> None:
        self.summing = True
        try:
            summary = await client.invoices.summary()
        finally:
            self.summing = False
        language = self.current_language
        self.tiles = InvoiceTiles.of(summary, language)
        self.chart = figure_json(billing_chart(summary, language))

    @rx.event
    @reports_failures
    async def set_due_date(self, name: str, value: str):
        """One end of the due-date range; the earlier date is always the start (spec 2)."""
        filters = self.filters.with_value(name, value)
        start, end = filters.due_after, filters.due_before
        if start and end and start > end:
            filters = filters.model_copy(update={DUE_AFTER: end, DUE_BEFORE: start})
        async for update in self._apply(filters):
            yield update
