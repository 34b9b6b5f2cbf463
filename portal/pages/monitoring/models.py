"""What the monitoring screen shows, built from the provider's sensors (spec 2 and 4).

Sensors are grouped by group then device, the cards sorted by priority descending then
position; each group and the whole screen count their sensors per status level in the spec's
order (up, paused, warning, down, unknown). A path-type sensor — whose product tag (a tag
beginning with ``product_``) is one of the configured path types (DESIGN 6,
``SENSOR_PATH_TAGS``) — is left out of the counts and shows no status icon. Lookup sensors show
their state word in its colour.
"""

from collections.abc import Iterable, Sequence

from pydantic import BaseModel

from portal.client.models.sensors import LegendEntry, Sensor
from portal.i18n import N_, gettext

PRODUCT_TAG_PREFIX = "product_"
# Spec 4: the summary's order.
STATUS_ORDER = ("up", "paused", "warning", "down", "unknown")
STATUS_LABELS = {
    "up": N_("Up"),
    "paused": N_("Paused"),
    "warning": N_("Warning"),
    "down": N_("Down"),
    "unknown": N_("Unknown"),
}
# Spec 4: unknown, success, error, info and warning icons and colours (Radix colour scales).
STATUS_ICONS = {
    "up": "circle-check",
    "paused": "circle-pause",
    "warning": "triangle-alert",
    "down": "circle-x",
    "unknown": "circle-help",
}
STATUS_COLORS = {
    "up": "green",
    "paused": "blue",
    "warning": "amber",
    "down": "red",
    "unknown": "gray",
}
LOOKUP_LABELS = {
    "noData": N_("No data"),
    "up": N_("Up"),
    "testing": N_("Testing"),
    "down": N_("Down"),
    "unknown": N_("Unknown"),
    "dormant": N_("Dormant"),
    "notPresent": N_("Not present"),
    "lowerLayerDown": N_("Lower layer down"),
}
# Spec 4: up green; testing warning; down, unknown, dormant, notPresent, lowerLayerDown red;
# any other value the unknown colour.
_LOOKUP_STATUS = {
    "up": "up",
    "testing": "warning",
    "down": "down",
    "unknown": "down",
    "dormant": "down",
    "notPresent": "down",
    "lowerLayerDown": "down",
}


def status_of(value: str) -> str:
    """A sensor status the screen knows; anything else is unknown."""
    return value if value in STATUS_ORDER else "unknown"


def lookup_color(value: str | None) -> str:
    return STATUS_COLORS[_LOOKUP_STATUS.get(value or "", "unknown")]


def is_path_type(tags: Iterable[str], path_types: Iterable[str]) -> bool:
    types = set(path_types)
    return any(tag.startswith(PRODUCT_TAG_PREFIX) and tag in types for tag in tags)


class StatusCount(BaseModel):
    status: str = ""
    label: str = ""
    count: int = 0
    color: str = ""
    icon: str = ""


class SensorCard(BaseModel):
    id: str = ""
    name: str = ""
    status: str = "unknown"
    status_label: str = ""
    # Empty for path-type sensors: no status icon.
    icon: str = ""
    color: str = "gray"
    value: str = ""
    value_color: str = ""
    detail: str = ""
    favorite: bool = False
    is_path: bool = False
    priority: int = 0
    position: int = 0
    device: str = ""


class DeviceGroup(BaseModel):
    name: str = ""
    cards: list[SensorCard] = []


class SensorGroup(BaseModel):
    name: str = ""
    counts: list[StatusCount] = []
    devices: list[DeviceGroup] = []


class LegendRow(BaseModel):
    name: str = ""
    unit: str = ""
    color: str = ""
    # The shape marking the channel's line (circle, square…), once the chart's points came.
    marker: str = ""

    @classmethod
    def of(cls, entry: LegendEntry) -> "LegendRow":
        color = entry.color.strip().lstrip("#")
        valid = len(color) in (3, 6) and all(c in "0123456789abcdefABCDEF" for c in color)
        return cls(name=entry.name, unit=entry.unit or "", color=f"#{color}" if valid else "")


def sensor_card(sensor: Sensor, language: str, path_types: Iterable[str]) -> SensorCard:
    status = status_of(sensor.status)
    path = is_path_type(sensor.tags, path_types)
    if sensor.is_lookup:
        word = sensor.value or ""
        label = LOOKUP_LABELS.get(word)
        value = gettext(language, label) if label else word
        value_color = lookup_color(word)
    else:
        value, value_color = sensor.value or "", ""
    return SensorCard(
        id=sensor.id,
        name=sensor.name,
        status=status,
        status_label=gettext(language, STATUS_LABELS[status]),
        icon="" if path else STATUS_ICONS[status],
        color=STATUS_COLORS[status],
        value=value,
        value_color=value_color,
        detail=sensor.desc_value or sensor.desc or "",
        favorite=sensor.favorite,
        is_path=path,
        priority=sensor.priority,
        position=sensor.position,
        device=sensor.device,
    )


def status_counts(cards: Iterable[SensorCard], language: str) -> list[StatusCount]:
    """How many sensors per level, in the spec's order; path-type sensors are not counted."""
    counted = [card.status for card in cards if not card.is_path]
    return [
        StatusCount(
            status=status,
            label=gettext(language, STATUS_LABELS[status]),
            count=counted.count(status),
            color=STATUS_COLORS[status],
            icon=STATUS_ICONS[status],
        )
        for status in STATUS_ORDER
    ]


def group_sensors(
    sensors: Sequence[Sensor], language: str, path_types: Iterable[str]
) -> list[SensorGroup]:
    """Groups by name, then devices by name, then cards by priority descending and position."""
    types = tuple(path_types)
    by_group: dict[str, dict[str, list[SensorCard]]] = {}
    for sensor in sensors:
        devices = by_group.setdefault(sensor.group, {})
        devices.setdefault(sensor.device, []).append(sensor_card(sensor, language, types))
    groups = []
    for group_name in sorted(by_group, key=str.casefold):
        devices = by_group[group_name]
        ordered = [
            DeviceGroup(
                name=device,
                cards=sorted(devices[device], key=lambda card: (-card.priority, card.position)),
            )
            for device in sorted(devices, key=str.casefold)
        ]
        cards = [card for device in ordered for card in device.cards]
        groups.append(
            SensorGroup(name=group_name, counts=status_counts(cards, language), devices=ordered)
        )
    return groups
