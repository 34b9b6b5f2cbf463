"""Invoicing (spec 2, Invoices): tiles and the 24-month chart loaded once when the screen
opens, then the invoices as the URL's filters ask (reference, type, paid, due-date range)."""

from typing import Any

import reflex as rx

from portal.client import ProviderClient
from portal.components.chart_reader import ChartReading
from portal.components.charts import figure_json
from portal.components.invoices.state import InvoiceList
from portal.components.invoices.tiles import InvoiceTiles
from portal.pages.invoices.models import billing_chart, billing_reading
from portal.state.session import SessionState


class InvoicesState(InvoiceList, SessionState):
    tiles: rx.Field[InvoiceTiles] = rx.field(default_factory=InvoiceTiles)
    chart: rx.Field[dict[str, Any]] = rx.field(default_factory=dict)
    summing: rx.Field[bool] = rx.field(True)
    # The chart in words and numbers, and whether it shows as a table (issue 54).
    chart_reading: rx.Field[ChartReading] = rx.field(default_factory=ChartReading)
    chart_table: rx.Field[bool] = rx.field(False)

    async def _open(self, client: ProviderClient) -> None:
        self.summing = True
        try:
            summary = await client.invoices.summary()
        finally:
            self.summing = False
        language = self.current_language
        self.tiles = InvoiceTiles.of(summary, language)
        self.chart = figure_json(billing_chart(summary, language))
        self.chart_reading = billing_reading(summary, language)

    @rx.event
    def toggle_chart_table(self):
        self.chart_table = not self.chart_table
