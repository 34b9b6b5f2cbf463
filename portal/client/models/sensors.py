"""Monitoring sensors, their chart legends (spec 3: Sensor, Sensor chart legend entry) and the
points of a chart (beyond the spec: docs/decisions/readable-charts.md)."""

import datetime as dt
from typing import Literal

from pydantic import Field

from portal.client.models.base import Entity, ProviderModel

ChartSpan = Literal["last_2_hours", "last_48_hours", "last_30_days", "last_365_days"]
CHART_SPANS: tuple[ChartSpan, ...] = (
    "last_2_hours",
    "last_48_hours",
    "last_30_days",
    "last_365_days",
)
DEFAULT_CHART_SPAN: ChartSpan = "last_2_hours"  # spec 9


class Sensor(Entity):
    reference: str = ""
    group: str = ""
    device: str = ""
    name: str = ""
    status: str = "unknown"
    priority: int = 0
    favorite: bool = False
    value: str | None = None
    is_lookup: bool = False
    desc: str | None = None
    desc_value: str | None = None
    position: int = 0
    tags: list[str] = []
    client_references: list[str] = []
    port_label: str | None = None


class LegendEntry(Entity):
    name: str = ""
    unit: str | None = None
    # Hex without '#'.
    color: str = ""


class ChartChannel(ProviderModel):
    """One line of a chart: its points (``lows``/``highs`` for the roll-up spans only) and
    what it says in one sentence."""

    key: str = ""
    name: str = ""
    unit: str = ""
    color: str = ""
    # circle, square, triangle, diamond, hexagon or pentagon: the line's marker.
    marker: str = ""
    at: list[dt.datetime] = []
    values: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    last: float | None = None
    minimum: float | None = None
    maximum: float | None = None
    percentile_95: float | None = Field(default=None, alias="percentile95")


class ChartData(ProviderModel):
    """The points a sensor's chart draws over a span, and where its time axis lies in the SVG
    (fractions of its width)."""

    span: str = ""
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    plot_left: float = 0.0
    plot_width: float = 1.0
    channels: list[ChartChannel] = []
