"""Monitoring sensors and their chart legends (spec 3: Sensor, Sensor chart legend entry)."""

from typing import Literal

from portal.client.models.base import Entity

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
