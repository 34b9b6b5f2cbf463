"""A sensor chart in words and numbers (issue 54, docs/decisions/readable-charts.md): its summary
sentence, its table and its readout, from the points the provider drew, in the user's
language, number format and time zone.

Traffic (bit/s) is scaled as the chart scales it (kbit/s … Tbit/s, from the span's peak), so
the sentence, the table and the axis say the same numbers.
"""

from collections.abc import Sequence
from datetime import datetime

from babel.numbers import format_decimal

from portal.client.models.sensors import ChartChannel, ChartData
from portal.components.chart_reader import READOUT, READOUT_VALUE, ChartReading
from portal.i18n import N_, format_day, format_locale, format_moment, gettext

_BIT_PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
# The roll-up spans: each point an hour's or a day's average, with its lowest and highest.
_DAILY = "last_365_days"
_ROLLED_UP = ("last_30_days", _DAILY)
MISSING = "–"
# The spans as their buttons say them.
SPAN_LABELS = {
    "last_2_hours": N_("2 hours"),
    "last_48_hours": N_("48 hours"),
    "last_30_days": N_("30 days"),
    "last_365_days": N_("365 days"),
}

SUMMARY = N_("{span} up to now, from {start} to {end} ({zone}): {channels}.")
NO_DATA = N_("{span} up to now, from {start} to {end} ({zone}): no data for this period.")
CHANNEL_FIGURES = N_(
    "{name}: last {last}, lowest {minimum}, highest {maximum}, 95th percentile {percentile}"
)
CAPTION = N_("{name}, {span} up to now (times in {zone})")
TIME = N_("Time")
DAY = N_("Day")
AVERAGE = N_("{name}, average ({unit})")
LOWEST = N_("{name}, lowest ({unit})")
HIGHEST = N_("{name}, highest ({unit})")
READOUT_RANGE = N_("{name}: {value} (lowest {low}, highest {high})")


def _scale(channels: Sequence[ChartChannel]) -> tuple[float, str]:
    """The chart's factor and prefix: bit/s channels scaled from the span's peak."""
    if not channels or not all(c.unit.strip().endswith("bit/s") for c in channels):
        return 1.0, ""
    peak = max((abs(v) for c in channels for v in (c.highs or c.values)), default=0.0)
    return next(((f, p) for f, p in _BIT_PREFIXES if peak >= f), (1.0, ""))


class _Numbers:
    def __init__(self, data: ChartData, language: str) -> None:
        self.factor, prefix = _scale(data.channels)
        self.prefix = prefix
        self.locale = format_locale(language)

    def unit(self, channel: ChartChannel) -> str:
        return f"{self.prefix}bit/s" if self.prefix else channel.unit

    def number(self, value: float | None) -> str:
        if value is None:
            return MISSING
        return format_decimal(value / self.factor, format="#,##0.##", locale=self.locale)

    def value(self, value: float | None, channel: ChartChannel) -> str:
        unit = self.unit(channel)
        return f"{self.number(value)} {unit}".strip() if value is not None else MISSING


def sensor_reading(
    data: ChartData, name: str, span_label: str, language: str, zone: str
) -> ChartReading:
    """``span_label``: the span as its button says it, translated ("48 hours")."""
    numbers = _Numbers(data, language)
    rolled = data.span in _ROLLED_UP
    zone_name = zone or "UTC"

    def moment(value: datetime | None) -> str:
        if data.span == _DAILY and value is not None:
            return format_day(value, language, zone)
        return format_moment(value, language, zone)

    span = {"span": span_label, "start": moment(data.start), "end": moment(data.end)}
    with_data = [channel for channel in data.channels if channel.values]
    if with_data:
        figures = [
            gettext(
                language,
                CHANNEL_FIGURES,
                name=channel.name,
                last=numbers.value(channel.last, channel),
                minimum=numbers.value(channel.minimum, channel),
                maximum=numbers.value(channel.maximum, channel),
                percentile=numbers.value(channel.percentile_95, channel),
            )
            for channel in with_data
        ]
        summary = gettext(language, SUMMARY, zone=zone_name, channels="; ".join(figures), **span)
    else:
        summary = gettext(language, NO_DATA, zone=zone_name, **span)

    columns = [gettext(language, DAY if data.span == _DAILY else TIME)]
    for channel in data.channels:
        unit = numbers.unit(channel)
        if rolled:
            columns += [
                gettext(language, header, name=channel.name, unit=unit)
                for header in (AVERAGE, LOWEST, HIGHEST)
            ]
        else:
            columns.append(f"{channel.name} ({unit})" if unit else channel.name)

    moments = sorted({at for channel in data.channels for at in channel.at})
    rows: list[list[str]] = []
    readouts: list[str] = []
    by_channel = [_points(channel) for channel in data.channels]
    for at in moments:
        when = moment(at)
        cells, said = [when], []
        for channel, points in zip(data.channels, by_channel, strict=True):
            value, low, high = points.get(at, (None, None, None))
            if rolled:
                cells += [numbers.number(value), numbers.number(low), numbers.number(high)]
            else:
                cells.append(numbers.number(value))
            if value is None:
                continue
            if rolled:
                said.append(
                    gettext(
                        language,
                        READOUT_RANGE,
                        name=channel.name,
                        value=numbers.value(value, channel),
                        low=numbers.value(low, channel),
                        high=numbers.value(high, channel),
                    )
                )
            else:
                said.append(
                    gettext(
                        language,
                        READOUT_VALUE,
                        name=channel.name,
                        value=numbers.value(value, channel),
                    )
                )
        rows.append(cells)
        readouts.append(gettext(language, READOUT, time=when, values="; ".join(said)))
    return ChartReading(
        summary=summary,
        caption=gettext(language, CAPTION, name=name, span=span_label, zone=zone_name),
        columns=columns,
        rows=rows,
        readouts=readouts,
        xs=_positions(data, moments),
    )


_Point = tuple[float | None, float | None, float | None]


def _points(channel: ChartChannel) -> dict[datetime, _Point]:
    lows: Sequence[float | None] = channel.lows or [None] * len(channel.values)
    highs: Sequence[float | None] = channel.highs or [None] * len(channel.values)
    return {
        at: (value, low, high)
        for at, value, low, high in zip(channel.at, channel.values, lows, highs, strict=False)
    }


def _positions(data: ChartData, moments: Sequence[datetime]) -> list[float]:
    """Each moment along the time axis, 0 at the span's start and 1 at its end."""
    if data.start is None or data.end is None or data.end <= data.start:
        return [0.0 for _ in moments]
    start, length = data.start.timestamp(), (data.end - data.start).total_seconds()
    return [min(max((at.timestamp() - start) / length, 0.0), 1.0) for at in moments]


def plot_inset(data: ChartData) -> tuple[str, str]:
    """Where the SVG's time axis lies: its distance from the chart's left and right edges."""
    right = max(1.0 - data.plot_left - data.plot_width, 0.0)
    return f"{data.plot_left * 100:.2f}%", f"{right * 100:.2f}%"
