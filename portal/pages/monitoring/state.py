"""The monitoring screen (spec 2): the sensors grouped with their status counts, refreshed
every 30 s, a tag filter, and the chart dialog of one sensor.

The list and the chart are read in background events: a refresh never holds the tab's state
lock while the provider answers, so an open dialog and a span change stay responsive, and the
page is updated in place (scroll position and dialog kept). A refresh writes only what changed.
"""

import asyncio
import time
from datetime import UTC, datetime
from typing import cast

import reflex as rx

from portal.client import ProviderError
from portal.client.models.sensors import CHART_SPANS, DEFAULT_CHART_SPAN, ChartSpan
from portal.components.chart_reader import ChartReading
from portal.components.multi_select import Option
from portal.i18n import format_time, gettext
from portal.pages.monitoring.chart_reading import SPAN_LABELS, plot_inset, sensor_reading
from portal.pages.monitoring.models import (
    LegendRow,
    SensorGroup,
    StatusCount,
    group_sensors,
    status_counts,
)
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.messages import failure_text
from portal.state.session import SessionState

REFRESH_MS = 30_000  # spec 9
# Far beyond the provider client's timeouts: a refresh still under way after this long was lost
# (its worker stopped), and the next one runs.
LOST_REFRESH_SECONDS = 120


class MonitoringState(SessionState):
    groups: rx.Field[list[SensorGroup]] = rx.field(default_factory=list)
    counts: rx.Field[list[StatusCount]] = rx.field(default_factory=list)
    total: rx.Field[int] = rx.field(0)
    shown: rx.Field[int] = rx.field(0)
    loading: rx.Field[bool] = rx.field(False)
    loaded: rx.Field[bool] = rx.field(False)
    refreshed_at: rx.Field[str] = rx.field("")
    tag_options: rx.Field[list[Option]] = rx.field(default_factory=list)
    tags: rx.Field[list[str]] = rx.field(default_factory=list)

    chart_open: rx.Field[bool] = rx.field(False)
    chart_sensor: rx.Field[str] = rx.field("")
    chart_title: rx.Field[str] = rx.field("")
    chart_subtitle: rx.Field[str] = rx.field("")
    chart_span: rx.Field[str] = rx.field(DEFAULT_CHART_SPAN)
    chart_svg: rx.Field[str] = rx.field("")
    chart_loading: rx.Field[bool] = rx.field(False)
    # Why the legend or the chart could not be read, said in the chart's place.
    chart_failure: rx.Field[str] = rx.field("")
    legend: rx.Field[list[LegendRow]] = rx.field(default_factory=list)
    # The chart in words and numbers: its summary, table and readout (issue 54).
    chart_reading: rx.Field[ChartReading] = rx.field(default_factory=ChartReading)
    chart_inset: rx.Field[list[str]] = rx.field(default_factory=lambda: ["0%", "0%"])
    chart_table: rx.Field[bool] = rx.field(False)
    # The chart shaped for a phone: the screen was narrow when the dialog opened.
    chart_narrow: rx.Field[bool] = rx.field(False)

    # The sensor whose legend is shown: Try again reads it first when it is not.
    _legend_of: str = ""
    # When the refresh under way began (0: none is).
    _refreshing_since: float = 0.0

    @rx.event
    def load(self):
        if not self._page_open():
            return None
        self.loading = not self.loaded
        return MonitoringState.refresh

    @rx.event(background=True)
    async def refresh(self):
        """Reads the sensors (the chosen tags) and updates the screen in place. One refresh at
        a time: a tick or a filter change that comes while one waits for the provider is
        skipped (ticks would pile up behind a provider slower than their period), and the
        refresh under way reads again when the tags changed meanwhile."""
        async with self:
            if not self._page_open() or self._refresh_under_way():
                return None
            self._refreshing_since = time.time()
        try:
            while not await self._read_sensors():
                pass
        except ProviderError as error:
            async with self:
                self.loading = False
                return await self.report(error)
        finally:
            async with self:
                self._refreshing_since = 0.0
        return None

    def _refresh_under_way(self) -> bool:
        # A refresh older than any provider call can last was lost with its worker.
        return time.time() - self._refreshing_since < LOST_REFRESH_SECONDS

    async def _read_sensors(self) -> bool:
        """One read of the chosen tags, shown; False when the tags changed before it could be."""
        async with self:
            tags = list(self.tags)
            language = self.current_language
            client = await self.provider()
        # Only what the cards show: the 2 000-sensor refresh every 30 s (issue 55, item 5).
        page = await client.sensors.list(tags, view="card")
        path_types = get_settings().sensor_path_tags
        groups = group_sensors(page.items, language, path_types)
        cards = [card for group in groups for device in group.devices for card in device.cards]
        counts = status_counts(cards, language)
        found_tags = {tag for sensor in page.items for tag in sensor.tags}
        async with self:
            if tags != self.tags:
                return False
            if groups != self.groups:
                self.groups = groups
            if counts != self.counts:
                self.counts = counts
            self.total, self.shown = page.total, len(page.items)
            known = {option.value for option in self.tag_options}
            if not found_tags <= known:
                every = sorted(known | found_tags, key=str.casefold)
                self.tag_options = [Option(value=tag, label=tag) for tag in every]
            self.refreshed_at = format_time(datetime.now(UTC), language, self.time_zone)
            self.loading, self.loaded = False, True
        return True

    @rx.event
    def toggle_tag(self, tag: str):
        self.tags = [t for t in self.tags if t != tag] if tag in self.tags else [*self.tags, tag]
        self.loading = True
        return MonitoringState.refresh

    @rx.event
    def clear_tags(self):
        self.tags = []
        self.loading = True
        return MonitoringState.refresh

    # --- the chart dialog ---------------------------------------------------------------------

    @rx.event
    @reports_failures(in_place=True)
    async def open_chart(self, sensor_id: str, name: str, device: str, narrow: bool = False):
        self.chart_sensor, self.chart_title, self.chart_subtitle = sensor_id, name, device
        self.chart_narrow = narrow is True
        self.chart_span = DEFAULT_CHART_SPAN
        self.chart_svg, self.legend, self._legend_of = "", [], ""
        self.chart_reading, self.chart_table = ChartReading(), False
        self.chart_open, self.chart_loading, self.chart_failure = True, True, ""
        yield
        try:
            legend = await (await self.provider()).sensors.legend(sensor_id)
        except ProviderError as error:
            self._chart_failed(error)
            raise
        self.legend, self._legend_of = [LegendRow.of(entry) for entry in legend], sensor_id
        yield MonitoringState.show_span(DEFAULT_CHART_SPAN)

    def _chart_failed(self, error: ProviderError) -> None:
        """The spinner stops and the dialog says why, with Try again."""
        self.chart_loading = False
        self.chart_failure = failure_text(error, self.current_language)

    @rx.event
    def try_chart_again(self):
        if self._legend_of != self.chart_sensor:
            return MonitoringState.open_chart(
                self.chart_sensor, self.chart_title, self.chart_subtitle, self.chart_narrow
            )
        return MonitoringState.show_span(self.chart_span)

    @rx.event(background=True)
    async def show_span(self, span: str | list[str]):
        """Draws the chosen span; a late answer for a span no longer chosen is dropped."""
        if not isinstance(span, str) or span not in CHART_SPANS:
            return None
        chosen = cast(ChartSpan, span)
        async with self:
            self.chart_span, self.chart_loading, self.chart_failure = chosen, True, ""
            sensor, zone = self.chart_sensor, self.time_zone
            name, language, narrow = self.chart_title, self.current_language, self.chart_narrow
            try:
                client = await self.provider()
            except ProviderError as error:
                self._chart_failed(error)
                return await self.report(error, in_place=True)
        try:
            svg, data = await asyncio.gather(
                client.sensors.chart_svg(sensor, chosen, time_zone=zone, narrow=narrow),
                client.sensors.chart_data(sensor, chosen, narrow=narrow),
            )
        except ProviderError as error:
            async with self:
                if (self.chart_sensor, self.chart_span) == (sensor, chosen):
                    self._chart_failed(error)
                return await self.report(error, in_place=True)
        span_label = gettext(language, SPAN_LABELS[chosen])
        reading = sensor_reading(data, name, span_label, language, zone)
        markers = {channel.name: channel.marker for channel in data.channels}
        async with self:
            if (self.chart_sensor, self.chart_span) == (sensor, chosen):
                self.chart_svg, self.chart_loading = svg, False
                self.chart_reading, self.chart_inset = reading, list(plot_inset(data))
                self.legend = [
                    row.model_copy(update={"marker": markers.get(row.name, "")})
                    for row in self.legend
                ]
        return None

    @rx.event
    def toggle_chart_table(self):
        self.chart_table = not self.chart_table

    @rx.event
    def set_chart_open(self, is_open: bool):
        self.chart_open = is_open
        if not is_open:
            self.chart_svg, self.chart_sensor = "", ""
            self.chart_reading = ChartReading()
