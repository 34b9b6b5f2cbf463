"""Sensors and their chart legends as the API shows them (spec section 3: Sensor, Sensor chart
legend entry)."""

import datetime as dt
import enum
from collections.abc import Callable
from typing import Any

from pydantic import Field, model_serializer
from sqlalchemy import Row
from sqlmodel import col

from portal.provider.platform.hydra import ApiModel, Resource, iri
from portal.provider.platform.models import Sensor, SensorLegendEntry


class SensorOut(Resource):
    type: str = Field(default="Sensor", alias="@type")
    reference: str
    group: str
    device: str
    name: str
    status: str
    priority: int
    favorite: bool
    value: str | None
    is_lookup: bool
    desc: str | None
    desc_value: str | None
    position: int
    tags: list[str]
    client_references: list[str]
    port_label: str | None


class SensorView(enum.StrEnum):
    """What the list gives of each sensor (issue 55, item 5)."""

    FULL = "full"
    # The monitoring screen's refresh: only what its cards show, each sensor once.
    CARD = "card"


class SensorCardOut(ApiModel):
    """A sensor as the monitoring screen's card shows it: no IRI, type, reference, client
    references or port label; a field without a value is left out."""

    id: str
    group: str
    device: str
    name: str
    status: str
    priority: int
    favorite: bool
    value: str | None = None
    is_lookup: bool
    desc: str | None = None
    desc_value: str | None = None
    position: int
    tags: list[str]

    @model_serializer(mode="wrap")
    def _without_nulls(self, handler: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        return {name: value for name, value in handler(self).items() if value is not None}


class SensorCardsOut(ApiModel):
    """The list in its card view: the sensors once, as ``items``, and how many match."""

    items: list[SensorCardOut]
    total_items: int = Field(alias="totalItems")


class LegendEntryOut(Resource):
    type: str = Field(default="SensorChartLegendEntry", alias="@type")
    key: str
    name: str
    unit: str | None
    # Hex without '#' (spec section 3).
    color: str


class ChartChannelOut(ApiModel):
    key: str
    name: str
    unit: str
    # Hex without '#', as the legend's.
    color: str
    marker: str = Field(
        description="The line's marker: circle, square, triangle, diamond, hexagon or pentagon."
    )
    at: list[dt.datetime] = Field(description="The points' moments, oldest first (UTC).")
    values: list[float] = Field(
        description="The value drawn at each moment (an average for the roll-up spans)."
    )
    lows: list[float] = Field(
        description="Each hour's or day's minimum (roll-up spans; empty otherwise)."
    )
    highs: list[float] = Field(
        description="Each hour's or day's maximum (roll-up spans; empty otherwise)."
    )
    last: float | None
    minimum: float | None
    maximum: float | None
    percentile95: float | None = Field(
        description="Nearest rank of the values, after the highest 5 %."
    )


class ChartDataOut(ApiModel):
    type: str = Field(default="SensorChartData", alias="@type")
    span: str
    start: dt.datetime
    end: dt.datetime
    plot_left: float = Field(
        description="Where the SVG chart's time axis starts, as a fraction of its width."
    )
    plot_width: float = Field(
        description="The time axis's length, as a fraction of the chart's width."
    )
    channels: list[ChartChannelOut]


# What a sensor shows, read by the list as rows: building 2 000 entities was half of its cost.
SENSOR_COLUMNS = (
    col(Sensor.id), col(Sensor.reference), col(Sensor.group), col(Sensor.device),
    col(Sensor.name), col(Sensor.status), col(Sensor.priority), col(Sensor.favorite),
    col(Sensor.value), col(Sensor.is_lookup), col(Sensor.desc), col(Sensor.desc_value),
    col(Sensor.position), col(Sensor.tags), col(Sensor.client_references),
    col(Sensor.port_label),
)  # fmt: skip


def sensor_out(sensor: Sensor | Row[Any]) -> SensorOut:
    # ``Sensor`` beside the row: the type checker holds the names read to the model's.
    return SensorOut(
        iri=iri("sensors", sensor.id),
        reference=sensor.reference,
        client_references=list(sensor.client_references or []),
        port_label=sensor.port_label,
        **_card_fields(sensor),
    )


# What a card shows, read as rows.
CARD_COLUMNS = (
    col(Sensor.id), col(Sensor.group), col(Sensor.device), col(Sensor.name), col(Sensor.status),
    col(Sensor.priority), col(Sensor.favorite), col(Sensor.value), col(Sensor.is_lookup),
    col(Sensor.desc), col(Sensor.desc_value), col(Sensor.position), col(Sensor.tags),
)  # fmt: skip


def _card_fields(sensor: Sensor | Row[Any]) -> dict[str, Any]:
    """What a sensor's card shows, in both views."""
    return {
        "id": str(sensor.id),
        "group": sensor.group,
        "device": sensor.device,
        "name": sensor.name,
        "status": sensor.status.value,
        "priority": sensor.priority,
        "favorite": sensor.favorite,
        "value": sensor.value,
        "is_lookup": sensor.is_lookup,
        "desc": sensor.desc,
        "desc_value": sensor.desc_value,
        "position": sensor.position,
        "tags": list(sensor.tags or []),
    }


def sensor_card_out(sensor: Sensor | Row[Any]) -> SensorCardOut:
    return SensorCardOut(**_card_fields(sensor))


def legend_entry_out(entry: SensorLegendEntry) -> LegendEntryOut:
    return LegendEntryOut(
        iri=f"/api/sensors/{entry.sensor_id}/chart_legend/{entry.id}",
        id=str(entry.id),
        key=entry.key,
        name=entry.name,
        unit=entry.unit,
        color=entry.color,
    )
