"""Invoicing: four tiles, the chart of the last 24 months, the filter row and the table."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.client.filters import ANY
from portal.client.models import InvoiceFilters
from portal.components.chart_reader import ChartReading, chart_reader, table_toggle
from portal.components.charts import lazy_plot
from portal.components.data_table import clear_filters_button, date_filter, list_count, text_filter
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.invoices.table import invoices_table
from portal.components.invoices.tiles import InvoiceTiles, invoice_tiles
from portal.pages.invoices.state import InvoicesState

chosen: ObjectVar[InvoiceFilters] = InvoicesState.filters.to(ObjectVar, InvoiceFilters)


def tiles() -> rx.Component:
    return invoice_tiles(InvoicesState.tiles.to(ObjectVar, InvoiceTiles), InvoicesState.summing)


def chart() -> rx.Component:
    return rx.card(
        rx.flex(
            rx.heading(_("Invoiced and paid over the last 24 months"), as_="h2", size="4"),
            table_toggle(
                InvoicesState.chart_table, InvoicesState.toggle_chart_table, "chart-column"
            ),
            justify="between",
            align="center",
            wrap="wrap",
            gap="8px",
            width="100%",
        ),
        rx.cond(
            InvoicesState.summing,
            rx.skeleton(rx.box(height="320px"), loading=True),
            chart_reader(
                lazy_plot(
                    InvoicesState.chart,
                    config={"displayModeBar": False, "responsive": True},
                    width="100%",
                    height="320px",
                ),
                reading=InvoicesState.chart_reading.to(ObjectVar, ChartReading),
                table=InvoicesState.chart_table,
                label=_("Invoicing chart: the arrow keys read each month's amounts"),
                summary_id="invoices-chart-summary",
                plot_selector=".nsewdrag",
                margin_top="12px",
            ),
        ),
        width="100%",
        data_testid="invoices-chart",
    )


def _select(label: rx.Var, name: str, value: rx.Var, options: list[tuple[str, rx.Var]]):
    return field(
        label,
        rx.select.root(
            rx.select.trigger(aria_label=label, width="100%"),
            rx.select.content(*(rx.select.item(text, value=key) for key, text in options)),
            value=value,
            on_change=lambda choice: InvoicesState.set_filter(name, choice),
        ),
    )


def filters() -> rx.Component:
    return rx.flex(
        text_filter(
            InvoicesState,
            "invoices-filter-reference",
            _("Reference"),
            "reference",
            chosen.reference,
        ),
        _select(
            _("Type"),
            "type",
            rx.cond(chosen.type.is_none(), ANY, chosen.type.to(str)),
            [(ANY, _("All types")), ("invoice", _("Invoice")), ("credit", _("Credit note"))],
        ),
        _select(
            _("Payment"),
            "is_paid",
            rx.cond(chosen.is_paid.is_none(), ANY, rx.cond(chosen.is_paid, "1", "0")),
            [(ANY, _("Paid and unpaid")), ("1", _("Paid")), ("0", _("Unpaid"))],
        ),
        date_filter(
            InvoicesState, "invoices-due-after", _("Due from"), "due_after", chosen.due_after
        ),
        date_filter(
            InvoicesState, "invoices-due-before", _("Due until"), "due_before", chosen.due_before
        ),
        clear_filters_button(InvoicesState),
        direction=rx.breakpoints(initial="column", md="row"),
        align=rx.breakpoints(initial="stretch", md="end"),
        spacing="3",
        width="100%",
    )


def _count() -> rx.Component:
    return list_count(
        InvoicesState,
        _("1 invoice or credit note"),
        _("{count} invoices and credit notes", count=InvoicesState.total),
        test_id="invoices-count",
    )


def invoicing() -> rx.Component:
    return rx.vstack(
        tiles(),
        chart(),
        rx.card(
            rx.vstack(filters(), _count(), invoices_table(InvoicesState), spacing="4"),
            width="100%",
            size=rx.breakpoints(initial="1", sm="3"),
        ),
        spacing="4",
        width="100%",
    )
