"""The monitoring screen: summary counts, the tag filter, groups of device cards, and the chart
dialog with its four spans and legend."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal.components.chart_reader import ChartReading, chart_reader, table_toggle
from portal.components.failure import failure_callout
from portal.components.i18n import _
from portal.components.multi_select import multi_select
from portal.components.sensor_chart import sensor_chart_svg, visible_interval
from portal.pages.monitoring.chart_reading import SPAN_LABELS
from portal.pages.monitoring.models import (
    DeviceGroup,
    LegendRow,
    SensorCard,
    SensorGroup,
    StatusCount,
)
from portal.pages.monitoring.state import REFRESH_MS, MonitoringState

SPANS = tuple(SPAN_LABELS.items())
# Read in the browser as a card is opened: a phone gets the chart drawn for its width.
NARROW_SCREEN: rx.Var[bool] = rx.Var(
    "window.matchMedia('(max-width: 599px)').matches", _var_type=bool
)


def _count_chip(count: ObjectVar[StatusCount], *, small: bool = False) -> rx.Component:
    return rx.badge(
        rx.icon(count.icon, size=12 if small else 14),
        rx.text(count.label, as_="span"),
        rx.text(count.count, as_="span", weight="bold", data_testid="status-count"),
        color_scheme=count.color,
        variant="soft",
        size="1" if small else "2",
        data_status=count.status,
    )


def summary() -> rx.Component:
    counts = MonitoringState.counts.to(ArrayVar, list[StatusCount])
    return rx.flex(
        rx.foreach(counts, lambda count: _count_chip(count)),
        wrap="wrap",
        spacing="2",
        data_testid="monitoring-summary",
        aria_label=_("Sensors by status"),
    )


def toolbar() -> rx.Component:
    return rx.flex(
        multi_select(
            _("Tags"),
            options=MonitoringState.tag_options.to(ArrayVar),
            selected=MonitoringState.tags.to(ArrayVar),
            on_toggle=MonitoringState.toggle_tag,
            on_clear=MonitoringState.clear_tags,
            test_id="tag-filter",
        ),
        rx.spacer(),
        rx.cond(
            MonitoringState.refreshed_at != "",
            rx.text(
                _("Updated at {time}", time=MonitoringState.refreshed_at),
                size="1",
                color=rx.color("gray", 11),
                data_testid="monitoring-refreshed",
            ),
        ),
        align="center",
        spacing="3",
        wrap="wrap",
        width="100%",
    )


def _value(card: ObjectVar[SensorCard]) -> rx.Component:
    return rx.cond(
        card.value_color != "",
        rx.badge(card.value, color_scheme=card.value_color, variant="soft", data_testid="lookup"),
        rx.text(card.value, size="2", weight="medium"),
    )


def sensor_card(card: ObjectVar[SensorCard]) -> rx.Component:
    # A native button drawn as the card: Tab reaches it, Enter and Space open the chart.
    return rx.card(
        rx.el.button(
            rx.hstack(
                rx.cond(
                    card.icon != "",
                    rx.tooltip(
                        rx.icon(
                            card.icon, color=rx.color(card.color, 10), size=20, flex_shrink="0"
                        ),
                        content=card.status_label,
                    ),
                ),
                rx.vstack(
                    rx.hstack(
                        rx.text(card.name, size="2", weight="bold", trim="both"),
                        rx.cond(
                            card.favorite, rx.icon("star", size=12, color=rx.color("amber", 9))
                        ),
                        align="center",
                        spacing="1",
                    ),
                    _value(card),
                    rx.cond(
                        card.detail != "",
                        rx.text(card.detail, size="1", color=rx.color("gray", 11)),
                    ),
                    spacing="1",
                    min_width="0",
                ),
                align="start",
                spacing="2",
            ),
            # The card's name is its visible text, then the status its icon's colour shows
            # and what it does (issue 54): visible text first, as voice control expects
            # (WCAG 2.5.3, label in name).
            rx.el.span(
                _("{status}: open the chart", status=card.status_label),
                class_name="visually-hidden",
            ),
            type="button",
        ),
        as_child=True,
        cursor="pointer",
        text_align="start",
        width="100%",
        on_click=MonitoringState.open_chart(card.id, card.name, card.device, NARROW_SCREEN),
        data_testid="sensor-card",
        data_status=card.status,
        data_path=card.is_path.to_string(),
        _hover={"background": rx.color("gray", 3)},
    )


def _device(device: ObjectVar[DeviceGroup]) -> rx.Component:
    cards = device.cards.to(ArrayVar, list[SensorCard])
    return rx.vstack(
        rx.hstack(
            rx.icon("router", size=14, color=rx.color("gray", 10)),
            rx.text(device.name, size="2", weight="medium", color=rx.color("gray", 11)),
            align="center",
            spacing="1",
        ),
        rx.grid(
            rx.foreach(cards, sensor_card),
            columns=rx.breakpoints(initial="1", sm="2", md="3", lg="4"),
            spacing="3",
            width="100%",
        ),
        spacing="2",
        width="100%",
    )


def _group(group: ObjectVar[SensorGroup]) -> rx.Component:
    counts = group.counts.to(ArrayVar, list[StatusCount])
    devices = group.devices.to(ArrayVar, list[DeviceGroup])
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.heading(group.name, as_="h2", size="4"),
                rx.flex(
                    rx.foreach(
                        counts,
                        lambda count: rx.cond(count.count > 0, _count_chip(count, small=True)),
                    ),
                    spacing="1",
                    wrap="wrap",
                ),
                justify="between",
                align="center",
                wrap="wrap",
                gap="8px",
                width="100%",
            ),
            rx.foreach(devices, _device),
            spacing="4",
            width="100%",
        ),
        width="100%",
        data_testid="sensor-group",
    )


def sensor_groups() -> rx.Component:
    groups = MonitoringState.groups.to(ArrayVar, list[SensorGroup])
    return rx.cond(
        MonitoringState.loading & ~MonitoringState.loaded,
        rx.center(rx.spinner(size="3"), padding="48px", width="100%"),
        rx.cond(
            groups.length() == 0,
            rx.callout(_("No result"), icon="info", color_scheme="gray"),
            rx.vstack(
                rx.cond(
                    MonitoringState.total > MonitoringState.shown,
                    rx.callout(
                        _(
                            "The first {shown} of {total} sensors are shown: choose tags to "
                            "narrow the list.",
                            shown=MonitoringState.shown.to_string(),
                            total=MonitoringState.total.to_string(),
                        ),
                        icon="info",
                        color_scheme="amber",
                    ),
                ),
                rx.foreach(groups, _group),
                spacing="4",
                width="100%",
            ),
        ),
    )


def _legend_row(row: ObjectVar[LegendRow]) -> rx.Component:
    color = rx.cond(row.color != "", row.color, rx.color("gray", 9))
    return rx.hstack(
        rx.box(
            width="16px",
            height="6px",
            border_radius="2px",
            border=f"1px solid {rx.color('gray', 12)}",
            background=color,
        ),
        # The line's marker: colour is not the only thing telling the channels apart.
        rx.cond(
            row.marker != "",
            rx.icon(row.marker, size=14, color=rx.color("gray", 12), fill=color),
        ),
        rx.text(row.name, size="2"),
        rx.cond(row.unit != "", rx.text(f"({row.unit})", size="1", color=rx.color("gray", 11))),
        align="center",
        spacing="2",
        data_testid="legend-entry",
    )


def _chart_failure() -> rx.Component:
    return failure_callout(
        _("The chart could not be loaded."),
        MonitoringState.chart_failure,
        MonitoringState.try_chart_again,
        test_id="chart-failure",
    )


def chart_dialog() -> rx.Component:
    legend = MonitoringState.legend.to(ArrayVar, list[LegendRow])
    inset = MonitoringState.chart_inset.to(ArrayVar, list[str])
    return rx.dialog.root(
        rx.dialog.content(
            rx.vstack(
                rx.flex(
                    rx.vstack(
                        rx.dialog.title(MonitoringState.chart_title, margin="0"),
                        rx.text(
                            MonitoringState.chart_subtitle, size="2", color=rx.color("gray", 11)
                        ),
                        spacing="1",
                    ),
                    rx.dialog.close(
                        rx.icon_button(
                            rx.icon("x", size=16),
                            variant="ghost",
                            color_scheme="gray",
                            aria_label=_("Close"),
                        )
                    ),
                    justify="between",
                    width="100%",
                ),
                rx.flex(
                    rx.segmented_control.root(
                        *(
                            rx.segmented_control.item(_(label), value=value)
                            for value, label in SPANS
                        ),
                        size=rx.breakpoints(initial="1", sm="2"),
                        max_width="100%",
                        value=MonitoringState.chart_span,
                        on_change=MonitoringState.show_span,
                        aria_label=_("Period"),
                        data_testid="chart-spans",
                    ),
                    table_toggle(
                        MonitoringState.chart_table,
                        MonitoringState.toggle_chart_table,
                        "chart-line",
                    ),
                    justify="between",
                    align="center",
                    wrap="wrap",
                    gap="8px",
                    width="100%",
                ),
                rx.box(
                    chart_reader(
                        sensor_chart_svg(
                            MonitoringState.chart_svg,
                            MonitoringState.chart_title,
                            data_testid="sensor-chart",
                            data_span=MonitoringState.chart_span,
                            style={
                                "& svg": {"width": "100%", "height": "auto", "display": "block"}
                            },
                        ),
                        reading=MonitoringState.chart_reading.to(ObjectVar, ChartReading),
                        table=MonitoringState.chart_table,
                        label=_(
                            "Chart of {name}: the arrow keys read its values",
                            name=MonitoringState.chart_title,
                        ),
                        summary_id="sensor-chart-summary",
                        inset=(inset[0].to(str), inset[1].to(str)),
                        data_testid="sensor-chart-figure",
                    ),
                    rx.cond(
                        MonitoringState.chart_loading,
                        rx.center(
                            rx.spinner(size="3"),
                            position="absolute",
                            inset="0",
                            background=rx.color("gray", 2, alpha=True),
                        ),
                    ),
                    rx.cond(MonitoringState.chart_failure != "", _chart_failure()),
                    position="relative",
                    width="100%",
                    min_height="120px",
                    color=rx.color("gray", 12),
                ),
                rx.flex(rx.foreach(legend, _legend_row), spacing="4", wrap="wrap"),
                spacing="3",
                width="100%",
            ),
            max_width=rx.breakpoints(initial="95vw", md="80vw", lg="60vw"),
            width=rx.breakpoints(initial="95vw", md="80vw", lg="60vw"),
            padding=rx.breakpoints(initial="16px", sm="24px"),
            data_testid="chart-dialog",
        ),
        open=MonitoringState.chart_open,
        on_open_change=MonitoringState.set_chart_open,
    )


def monitoring_screen() -> rx.Component:
    return rx.vstack(
        visible_interval(REFRESH_MS, MonitoringState.refresh),
        summary(),
        toolbar(),
        sensor_groups(),
        chart_dialog(),
        spacing="4",
        width="100%",
    )
