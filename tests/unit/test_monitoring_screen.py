"""The monitoring screen's rules (spec 2 and 4, DESIGN 6): grouping by group then device, cards
by priority descending then position, status counts in the spec's order, status and lookup
colours and icons, path-type sensors left out of the counts and without an icon, and one refresh
at a time."""

import time
from typing import Any

import reflex as rx

from portal.client.hydra import Page
from portal.client.models.sensors import LegendEntry, Sensor
from portal.pages.monitoring.models import (
    STATUS_ORDER,
    LegendRow,
    group_sensors,
    is_path_type,
    lookup_color,
    sensor_card,
    status_counts,
)
from portal.pages.monitoring.state import LOST_REFRESH_SECONDS, MonitoringState

PATHS = ("product_path", "product_path_backup")


def _sensor(name: str, **fields: Any) -> Sensor:
    return Sensor.model_validate(
        {
            "@id": f"/api/sensors/{name}",
            "name": name,
            "group": fields.pop("group", "Paris"),
            "device": fields.pop("device", "par-ce1"),
            "status": fields.pop("status", "up"),
            "tags": fields.pop("tags", ["product_transit"]),
            **fields,
        }
    )


def test_groups_then_devices_by_name_and_cards_by_priority_then_position() -> None:
    sensors = [
        _sensor("a", group="Paris", device="par-ce2", priority=1, position=1),
        _sensor("b", group="Lyon", device="lyo-ce1", priority=1, position=1),
        _sensor("c", group="Paris", device="par-ce1", priority=2, position=5),
        _sensor("d", group="Paris", device="par-ce1", priority=5, position=9),
        _sensor("e", group="Paris", device="par-ce1", priority=2, position=1),
    ]
    groups = group_sensors(sensors, "en", PATHS)
    assert [g.name for g in groups] == ["Lyon", "Paris"]
    paris = groups[1]
    assert [d.name for d in paris.devices] == ["par-ce1", "par-ce2"]
    assert [c.name for c in paris.devices[0].cards] == ["d", "e", "c"]


def test_counts_follow_the_spec_order_and_leave_path_types_out() -> None:
    sensors = [
        _sensor("1", status="down"),
        _sensor("2", status="up"),
        _sensor("3", status="up"),
        _sensor("4", status="paused"),
        _sensor("5", status="down", tags=["product_path", "latency"]),
        _sensor("6", status="something new"),
    ]
    cards = [sensor_card(s, "en", PATHS) for s in sensors]
    counts = status_counts(cards, "fr")
    assert [c.status for c in counts] == list(STATUS_ORDER) == [
        "up", "paused", "warning", "down", "unknown",
    ]  # fmt: skip
    assert [c.count for c in counts] == [2, 1, 0, 1, 1]
    assert counts[0].label == "Opérationnel"
    assert (group_sensors(sensors, "en", PATHS)[0].counts) == status_counts(cards, "en")


def test_status_icons_and_colours() -> None:
    expected = {
        "up": ("circle-check", "green"),
        "paused": ("circle-pause", "blue"),
        "warning": ("triangle-alert", "amber"),
        "down": ("circle-x", "red"),
        "unknown": ("circle-help", "gray"),
    }
    for status, (icon, color) in expected.items():
        card = sensor_card(_sensor("s", status=status), "en", PATHS)
        assert (card.icon, card.color) == (icon, color)


def test_a_path_type_sensor_has_no_status_icon() -> None:
    card = sensor_card(_sensor("p", status="down", tags=["product_path_backup"]), "en", PATHS)
    assert card.is_path
    assert card.icon == ""
    # A tag that is a path type only with the product prefix counts; others do not.
    assert not is_path_type(["path", "latency"], ("path",))
    assert is_path_type(["product_path"], PATHS)
    assert not is_path_type(["product_transit"], PATHS)


def test_lookup_values_and_their_colours() -> None:
    colours = {
        "up": "green",
        "testing": "amber",
        "down": "red",
        "unknown": "red",
        "dormant": "red",
        "notPresent": "red",
        "lowerLayerDown": "red",
        "noData": "gray",
        "anything else": "gray",
    }
    for value, colour in colours.items():
        assert lookup_color(value) == colour
    card = sensor_card(_sensor("l", isLookup=True, value="lowerLayerDown"), "fr", PATHS)
    assert (card.value, card.value_color) == ("Couche inférieure en panne", "red")
    measured = sensor_card(_sensor("m", value="2.4 Gbit/s"), "en", PATHS)
    assert (measured.value, measured.value_color) == ("2.4 Gbit/s", "")


def test_legend_colours_are_hex_or_nothing() -> None:
    assert LegendRow.of(LegendEntry(name="In", color="1f77b4")).color == "#1f77b4"
    assert LegendRow.of(LegendEntry(name="Bad", color="red;background:url(x)")).color == ""


async def test_one_refresh_at_a_time_unless_the_last_was_lost_with_its_worker() -> None:
    root = rx.State(_reflex_internal_init=True)
    state = await root.get_state(MonitoringState)
    assert not state._refresh_under_way()
    state._refreshing_since = time.time()
    assert state._refresh_under_way()
    state._refreshing_since = time.time() - LOST_REFRESH_SECONDS - 1
    assert not state._refresh_under_way()


def test_the_card_view_gives_the_same_cards_as_the_full_list() -> None:
    """Issue 55, item 5: the refresh reads ``view=card`` (each sensor once, no IRI, reference,
    client references or port label, no null): the same cards as the spec's answer."""
    shown = {
        "group": "Paris", "device": "par-ce1", "name": "Port state xe-0/0/1", "status": "down",
        "priority": 4, "favorite": True, "isLookup": True, "value": "lowerLayerDown",
        "desc": "Operational state", "position": 7, "tags": ["product_path"],
    }  # fmt: skip
    uuid = "0b1d4c52-7f4e-4a57-9a8e-3c1f2d6b5e10"
    full = {
        "@id": f"/api/sensors/{uuid}", "@type": "Sensor", "id": uuid, "reference": "SEN-1",
        "descValue": None, "clientReferences": ["ACME-1"], "portLabel": "xe-0/0/1", **shown,
    }  # fmt: skip
    from_full = Page[Sensor].model_validate({"hydra:member": [full], "hydra:totalItems": 1})
    from_cards = Page[Sensor].model_validate({"items": [{"id": uuid, **shown}], "totalItems": 1})
    assert from_cards.total == 1
    assert [sensor_card(sensor, "en", PATHS) for sensor in from_cards.items] == [
        sensor_card(sensor, "en", PATHS) for sensor in from_full.items
    ]
    assert from_cards.items[0].id == uuid
