"""The sensor chart as SVG, drawn by matplotlib (docs/decisions/sensor-chart.md).

Matplotlib costs about the same for 24 points as for 720 (its work is the axes and the text),
so every span renders in a few tens of milliseconds; the chart holds one line per channel in the
legend's colour, the min–max band of each hour or day for the roll-up spans, the time labels in
the user's language and time zone, and for traffic sensors (channels in bit/s) the 95th
percentile drawn and stated. Text, axes and grid are drawn in ``currentColor``: inlined in the
page, the chart takes the page's text colour, light or dark. The SVG is made safe to inline:
no script, no event handler, no reference outside itself (tests/provider/test_sensor_charts.py).
"""

import io
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from enum import StrEnum
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from babel.numbers import format_decimal

from portal.i18n import format_locale, gettext, match_language


class Layout(StrEnum):
    """The chart's shape: ``wide`` for a desktop's dialog, ``narrow`` for a phone's, where the
    wide chart shrunk to 350 px wrote its labels at 7 px, running into each other."""

    WIDE = "wide"
    NARROW = "narrow"


@dataclass(frozen=True)
class Frame:
    """A layout's figure (inches, at 72 points an inch) and where its plot sits in it (left,
    bottom, width, height, as fractions): the portal places its pointer readout over the time
    axis with the left edge and the width."""

    size: tuple[float, float]
    plot_area: tuple[float, float, float, float]


FRAMES = {
    Layout.WIDE: Frame((8.0, 3.2), (0.09, 0.12, 0.89, 0.76)),
    # About a phone's width at 1:1, so the text keeps its 9 points; taller, for the percentile
    # lines stated one under the other above the plot.
    Layout.NARROW: Frame((4.6, 3.8), (0.15, 0.12, 0.82, 0.7)),
}
# Each channel's marker, in the legend's order, so that colour is not the only thing telling
# the lines apart (WCAG 1.4.1): matplotlib's code and the shape's name the API gives.
MARKERS = (
    ("o", "circle"),
    ("s", "square"),
    ("^", "triangle"),
    ("D", "diamond"),
    ("h", "hexagon"),
    ("p", "pentagon"),
)
# About this many markers along a line: enough to tell it, few enough to see its values.
_MARKS_PER_LINE = 10
# Drawn in these, then written as currentColor (matplotlib only takes real colours).
_TEXT_SENTINEL = "#010203"
_GRID_SENTINEL = "#030201"
# A time label's width a character, at the charts' 9 points: about 0.6 em (digits are wider,
# the colon and the space narrower), which the page's sans-serif font does not exceed.
_CHARACTER_POINTS = 9 * 0.6
_BIT_PREFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


class Span(StrEnum):
    LAST_2_HOURS = "last_2_hours"
    LAST_48_HOURS = "last_48_hours"
    LAST_30_DAYS = "last_30_days"
    LAST_365_DAYS = "last_365_days"


SPAN_LENGTH = {
    Span.LAST_2_HOURS: timedelta(hours=2),
    Span.LAST_48_HOURS: timedelta(hours=48),
    Span.LAST_30_DAYS: timedelta(days=30),
    Span.LAST_365_DAYS: timedelta(days=365),
}


@dataclass
class Series:
    """One channel: its legend and its points (``lows``/``highs`` for roll-ups only)."""

    name: str
    unit: str
    color: str
    times: list[float] = field(default_factory=list)  # Unix seconds
    values: list[float] = field(default_factory=list)
    lows: list[float] = field(default_factory=list)
    highs: list[float] = field(default_factory=list)
    key: str = ""


@dataclass(frozen=True)
class ChartRequest:
    span: Span
    end: datetime
    language: str
    zone: ZoneInfo
    # The expected time between two points, to break the line where data is missing.
    step: timedelta
    layout: Layout = Layout.WIDE

    @property
    def start(self) -> datetime:
        return self.end - SPAN_LENGTH[self.span]


def is_traffic(series: Sequence[Series]) -> bool:
    """Traffic sensors measure in bit/s: the carriers' 95th percentile applies to them."""
    return bool(series) and all(s.unit.strip().endswith("bit/s") for s in series)


def percentile_95(values: Sequence[float]) -> float | None:
    """The 95th percentile as carriers bill it (nearest rank): sort the samples, drop the
    highest 5 %, take the highest left."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(math.ceil(0.95 * len(ordered)) - 1, 0)]


@dataclass(frozen=True)
class Figures:
    """What a channel's chart says in one sentence: its last value, its lowest and highest
    (the roll-ups' minima and maxima), its 95th percentile (of the values the line draws)."""

    last: float | None
    minimum: float | None
    maximum: float | None
    percentile_95: float | None


def channel_figures(channel: Series) -> Figures:
    lows, highs = channel.lows or channel.values, channel.highs or channel.values
    return Figures(
        last=channel.values[-1] if channel.values else None,
        minimum=min(lows, default=None),
        maximum=max(highs, default=None),
        percentile_95=percentile_95(channel.values),
    )


# --- formats ------------------------------------------------------------------------------------


def _bit_scale(peak: float) -> tuple[float, str]:
    for factor, prefix in _BIT_PREFIXES:
        if peak >= factor:
            return factor, prefix
    return 1.0, ""


def _number(value: float, language: str) -> str:
    return format_decimal(value, format="#,##0.##", locale=format_locale(language))


def _time_label(moment: datetime, span: Span, language: str) -> str:
    french = match_language(language) == "fr"
    locale = format_locale(language)
    if span in (Span.LAST_2_HOURS, Span.LAST_48_HOURS):
        if span is Span.LAST_48_HOURS and moment.hour == 0 and moment.minute == 0:
            return format_datetime(moment, "d MMM", locale=locale)
        return format_datetime(moment, "HH:mm" if french else "h:mm a", locale=locale)
    if span is Span.LAST_30_DAYS:
        return format_datetime(moment, "d MMM", locale=locale)
    return format_datetime(moment, "MMM y" if moment.month == 1 else "MMM", locale=locale)


def time_ticks(request: ChartRequest) -> list[datetime]:
    """Round moments of the user's time zone inside the span: quarter hours, six hours, every
    fifth day, month starts; half as many on a narrow chart (half hours, twelve hours, every
    tenth day, every other month)."""
    zone, start, end = request.zone, request.start.astimezone(request.zone), request.end
    narrow = request.layout is Layout.NARROW
    ticks: list[datetime] = []
    if request.span in (Span.LAST_2_HOURS, Span.LAST_48_HOURS):
        step = 15 if request.span is Span.LAST_2_HOURS else 360
        step *= 2 if narrow else 1
        local = start.replace(second=0, microsecond=0)
        minutes = local.hour * 60 + local.minute
        moment = local - timedelta(minutes=minutes % step)
        while moment <= end:
            if moment >= start:
                ticks.append(moment)
            moment = (moment.astimezone(UTC) + timedelta(minutes=step)).astimezone(zone)
        return ticks
    day = start.date()
    while True:
        if request.span is Span.LAST_30_DAYS:
            wanted = day.day in ((1, 11, 21) if narrow else (1, 6, 11, 16, 21, 26))
        else:
            wanted = day.day == 1 and (not narrow or day.month % 2 == 1)
        moment = datetime(day.year, day.month, day.day, tzinfo=zone)
        if moment > end:
            return ticks
        if wanted and moment >= start:
            ticks.append(moment)
        day = _next_day(day)


def time_axis(request: ChartRequest) -> list[tuple[datetime, str]]:
    """The time ticks with their labels, but those whose label would reach past either end of
    the plot: at the left end it ran into the value axis' lowest label (a 48-hour chart on a
    phone, its first tick a few minutes into the span)."""
    frame = FRAMES[request.layout]
    plot_points = frame.size[0] * 72 * frame.plot_area[2]
    start, end = request.start.timestamp(), request.end.timestamp()
    points_per_second = plot_points / (end - start)
    kept = []
    for tick in time_ticks(request):
        label = _time_label(tick, request.span, request.language)
        half = len(label) * _CHARACTER_POINTS / 2
        at = (tick.timestamp() - start) * points_per_second
        if half <= at <= plot_points - half:
            kept.append((tick, label))
    return kept


def _next_day(day: date) -> date:
    return day + timedelta(days=1)


# --- drawing ------------------------------------------------------------------------------------

_lock = threading.Lock()
_matplotlib: Any = None


def _figure_class() -> Any:
    """Matplotlib, imported and set up on the first chart (it costs half a second)."""
    global _matplotlib
    if _matplotlib is None:
        import matplotlib

        matplotlib.use("svg")
        matplotlib.rcParams.update(
            {
                "svg.fonttype": "none",  # text stays text: the page's font, selectable
                "svg.hashsalt": "patchbay-sensor-chart",  # the same ids for the same chart
                "text.parse_math": False,  # a '$' in a name is a dollar, not TeX
                "font.family": "sans-serif",
                "font.size": 9,
                "axes.edgecolor": _TEXT_SENTINEL,
                "axes.labelcolor": _TEXT_SENTINEL,
                "xtick.color": _TEXT_SENTINEL,
                "ytick.color": _TEXT_SENTINEL,
                "text.color": _TEXT_SENTINEL,
                "grid.color": _GRID_SENTINEL,
                "grid.alpha": 0.25,
                "axes.spines.top": False,
                "axes.spines.right": False,
            }
        )
        from matplotlib.figure import Figure

        _matplotlib = Figure
    return _matplotlib


def median_spacing(times: Sequence[float]) -> float:
    """The usual time between two points: hourly history drawn in the 48-hour chart keeps its
    line, a paused sensor's days without data break it."""
    steps = sorted(b - a for a, b in pairwise(times))
    return steps[len(steps) // 2]


def _with_gaps(
    times: Sequence[float], values: Sequence[float], gap: float
) -> tuple[list[float], list[float]]:
    """The points with a NaN where two are further apart than ``gap``: no line over missing
    data."""
    xs: list[float] = []
    ys: list[float] = []
    previous: float | None = None
    for time, value in zip(times, values, strict=True):
        if previous is not None and time - previous > gap:
            xs.append((time + previous) / 2)
            ys.append(math.nan)
        xs.append(time)
        ys.append(value)
        previous = time
    return xs, ys


def render_chart(series: Sequence[Series], request: ChartRequest) -> str:
    """The chart of ``series`` over the request's span, as an SVG document (no XML prolog)."""
    language = request.language
    traffic = is_traffic(series)
    peak = max((max(s.highs or s.values, default=0.0) for s in series), default=0.0)
    factor, prefix = _bit_scale(abs(peak)) if traffic else (1.0, "")
    unit = f"{prefix}bit/s" if traffic else next((s.unit for s in series if s.unit), "")
    spacing = [median_spacing(channel.times) for channel in series if len(channel.times) > 1]
    gap = max([request.step.total_seconds(), *spacing]) * 2.5
    start, end = request.start.timestamp(), request.end.timestamp()
    with _lock:
        figure, axes = _canvas(request.layout)
        axes.set_xlim(start, end)
        stated: list[tuple[str, str]] = []
        drawn: list[float] = []
        for index, channel in enumerate(series):
            color = f"#{channel.color}"
            xs, ys = _with_gaps(channel.times, [v / factor for v in channel.values], gap)
            if channel.lows and channel.highs:
                _, lows = _with_gaps(channel.times, [v / factor for v in channel.lows], gap)
                _, highs = _with_gaps(channel.times, [v / factor for v in channel.highs], gap)
                axes.fill_between(xs, lows, highs, color=color, alpha=0.18, linewidth=0)
            _line(axes, xs, ys, color, index, len(series))
            drawn += [v / factor for v in (*channel.values, *channel.lows, *channel.highs)]
            if traffic:
                p95 = percentile_95(channel.values)
                if p95 is not None:
                    axes.axhline(
                        p95 / factor,
                        color=color,
                        linewidth=1,
                        linestyle=(0, (5, 3)),
                        path_effects=_outlined(2.4),
                    )
                    drawn.append(p95 / factor)
                    value = f"{_number(p95 / factor, language)} {unit}"
                    text = gettext(
                        language, "95th percentile, {name}: {value}", name=channel.name, value=value
                    )
                    stated.append((text, color))
        ticks = time_axis(request)
        axes.set_xticks([tick.timestamp() for tick, _ in ticks], [label for _, label in ticks])
        axes.yaxis.set_major_formatter(_axis_formatter(language))
        axes.set_ylabel(unit)
        axes.set_ylim(*_value_range(drawn))
        zone_label = gettext(language, "Time zone: {zone}", zone=request.zone.key)
        axes.text(1.0, -0.14, zone_label, transform=axes.transAxes, ha="right", fontsize=7.5)
        if not any(channel.values for channel in series):
            axes.set_yticks([])
            message = gettext(language, "No data for this period")
            axes.text(0.5, 0.5, message, transform=axes.transAxes, ha="center", va="center")
        _state_percentiles(figure, stated, request.layout)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", transparent=True, metadata={"Date": None})
    return _inline_safe(buffer.getvalue())


def _outlined(width: float) -> list[Any]:
    """A line in its channel's colour edged with the text colour (``currentColor``): whatever
    the legend's colour, the line stands out 3:1 from the light or the dark background
    (WCAG 1.4.11), as the text does."""
    from matplotlib import patheffects

    return [patheffects.withStroke(linewidth=width, foreground=_TEXT_SENTINEL)]


def _line(axes: Any, xs: list[float], ys: list[float], color: str, index: int, count: int) -> None:
    """A channel's line with its marker every few points, the channels' markers staggered."""
    marker, _ = MARKERS[index % len(MARKERS)]
    every = max(len(xs) // _MARKS_PER_LINE, 1)
    axes.plot(
        xs,
        ys,
        color=color,
        linewidth=1.3,
        marker=marker,
        markersize=5,
        markeredgecolor=_TEXT_SENTINEL,
        markeredgewidth=0.8,
        markevery=(index * every // max(count, 1), every),
        path_effects=_outlined(2.9),
    )


def _canvas(layout: Layout) -> tuple[Any, Any]:
    """The process's figure and axes of ``layout``, emptied of the previous chart (under
    ``_lock``).

    Building a figure and its axes' ticks is most of matplotlib's cost; one figure per layout
    and process, reused, draws the same chart in about half the time."""
    if layout not in _reused:
        frame = FRAMES[layout]
        figure = _figure_class()(figsize=frame.size)
        axes = figure.add_axes(frame.plot_area)
        axes.grid(True, linewidth=0.6)
        _reused[layout] = (figure, axes)
        return _reused[layout]
    figure, axes = _reused[layout]
    for artist in [*axes.lines, *axes.collections, *axes.texts]:
        artist.remove()
    figure.legends.clear()
    from matplotlib.ticker import AutoLocator

    axes.yaxis.set_major_locator(AutoLocator())
    return figure, axes


_reused: dict[Layout, tuple[Any, Any]] = {}


def _value_range(values: Sequence[float]) -> tuple[float, float]:
    """The y range: the values with a 5 % margin, from zero for positive measures."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    low, high = min(finite), max(finite)
    if low >= 0 and high > 0:
        low = 0.0
    margin = (high - low) * 0.05 or abs(high) * 0.05 or 1.0
    return low - (margin if low < 0 or high <= 0 else 0.0), high + margin


def _axis_formatter(language: str) -> Any:
    from matplotlib.ticker import FuncFormatter

    def format_tick(value: float, _position: int) -> str:
        return _number(value, language)

    return FuncFormatter(format_tick)


def _state_percentiles(figure: Any, stated: list[tuple[str, str]], layout: Layout) -> None:
    """'95th percentile, Traffic in: 2.1 Gbit/s' above the plot, one per channel, each beside a
    dashed line of its channel's colour: side by side, or one under the other when narrow."""
    if not stated:
        return
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], color=color, linewidth=1, linestyle=(0, (5, 3)), path_effects=_outlined(2.4))
        for _, color in stated
    ]
    figure.legend(
        handles,
        [text for text, _ in stated],
        loc="upper left",
        bbox_to_anchor=(FRAMES[layout].plot_area[0] - 0.01, 1.0),
        ncols=1 if layout is Layout.NARROW else len(stated),
        frameon=False,
        fontsize=8.5,
        handlelength=2.4,
    )


_PROLOG = re.compile(r"^.*?(?=<svg)", re.DOTALL)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_SIZE = re.compile(r'<svg([^>]*?) width="[^"]*" height="[^"]*"')


def _inline_safe(svg: str) -> str:
    """No XML prolog or DOCTYPE (an external DTD), no metadata; currentColor for the text,
    axes and grid; sized by its container through its viewBox."""
    svg = _PROLOG.sub("", svg, count=1)
    svg = _METADATA.sub("", svg, count=1)
    svg = _SIZE.sub(r'<svg\1 width="100%"', svg, count=1)
    return svg.replace(_TEXT_SENTINEL, "currentColor").replace(_GRID_SENTINEL, "currentColor")
