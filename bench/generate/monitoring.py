"""Monitoring sensors with their chart legends, and a year of five-minute samples for some.

The samples are the bulk of the data set (about 105 million rows at scale 1): they are built
with NumPy, a sensor at a time, straight into PostgreSQL's binary COPY format.
"""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from bench.generate.plan import SAMPLE_STEP
from bench.generate.progress import Progress
from bench.generate.world import CustomerCompany, World
from portal.provider.demo_data.build_monitoring import PATH_TAGS, channel_key
from portal.provider.demo_data.places import ALL_SITES
from portal.provider.demo_data.sensors import (
    LATENCY,
    LOOKUP_VALUES,
    POWER_DRAW,
    TEMPERATURE,
    TEMPLATES,
    Channel,
    SensorTemplate,
)
from portal.provider.models import SensorStatus

SENSOR_COLUMNS = (
    "id", "reference", "company_id", "group", "device", "name", "status", "priority", "favorite",
    "value", "is_lookup", "desc", "desc_value", "position", "tags", "client_references",
    "port_label",
)  # fmt: skip
SAMPLE_COLUMNS = ("id", "sensor_id", "legend_key", "at", "value")
# Sensors with a year of history have one channel: one row per five minutes.
SAMPLED_TEMPLATES = (LATENCY, TEMPERATURE, POWER_DRAW)
_STATUSES = {
    SensorStatus.UP: 85,
    SensorStatus.WARNING: 5,
    SensorStatus.DOWN: 4,
    SensorStatus.PAUSED: 3,
    SensorStatus.UNKNOWN: 3,
}
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_MICROSECONDS_PER_DAY = 86_400_000_000


@dataclass(frozen=True)
class SampledSensor:
    id: uuid.UUID
    channel: Channel
    baseline: float
    ordinal: int


def build_sensors(world: World) -> list[SampledSensor]:
    """Every sensor and legend entry; answers the sensors that get a year of samples."""
    world.spool("sensors", SENSOR_COLUMNS)
    world.spool("sensor_legend_entries", ("id", "sensor_id", "key", "name", "unit", "color"))
    plan = world.plan
    stride = plan.sensors // plan.sampled_sensors
    sampled: list[SampledSensor] = []
    progress = Progress("sensors", plan.sensors)
    ordinal = 0
    for customer, count in zip(world.customers, world.split("sensors"), strict=True):
        for position in range(count):
            with_samples = ordinal % stride == 0 and len(sampled) < plan.sampled_sensors
            template = (
                world.rng.choice(SAMPLED_TEMPLATES) if with_samples else world.rng.choice(TEMPLATES)
            )
            sensor = _sensor(world, customer, template, ordinal, position, with_samples)
            if sensor:
                sampled.append(sensor)
            ordinal += 1
        progress.advance(count)
    progress.finish()
    return sampled


def _sensor(
    world: World,
    customer: CustomerCompany,
    template: SensorTemplate,
    ordinal: int,
    position: int,
    with_samples: bool,
) -> SampledSensor | None:
    rng = world.rng
    site = rng.choice(ALL_SITES)
    port = f"xe-{rng.randint(0, 7)}/{rng.randint(0, 3)}/{rng.randint(0, 47)}"
    status = (
        SensorStatus.UP
        if with_samples
        else rng.choices(list(_STATUSES), list(_STATUSES.values()))[0]
    )
    scale = 1 + template.variation * (rng.random() - 0.5)
    first = template.channels[0]
    lookup = rng.choice(list(LOOKUP_VALUES)) if template.is_lookup else None
    value = lookup or f"{first.baseline * scale:.1f} {first.unit}".strip()
    sensor_id = world.new_id()
    tags = [rng.choice(PATH_TAGS)] if rng.random() < 0.3 else []
    world.add(
        "sensors",
        sensor_id,
        f"SEN-{ordinal + 1:07d}",
        customer.id,
        site.name,
        f"{site.city[:3].lower()}-{'core' if rng.random() < 0.5 else 'edge'}{rng.randint(1, 9)}",
        template.name.format(port=port),
        status.value,
        rng.randint(1, 5),
        rng.random() < 0.05,
        value,
        template.is_lookup,
        template.description,
        LOOKUP_VALUES[lookup] if lookup else None,
        position,
        tags,
        [],
        port,
    )
    for channel in template.channels:
        world.add(
            "sensor_legend_entries",
            world.new_id(),
            sensor_id,
            channel_key(channel.name),
            channel.name,
            channel.unit or None,
            channel.color,
        )
    if not with_samples:
        return None
    return SampledSensor(sensor_id, first, first.baseline * scale, ordinal)


def _row_type(key_length: int) -> np.dtype:
    """One row of binary COPY: field count, then each field's length and big-endian value."""
    return np.dtype(
        [
            ("fields", ">i2"),
            ("id_length", ">i4"),
            ("id", "V16"),
            ("sensor_length", ">i4"),
            ("sensor", "V16"),
            ("key_length", ">i4"),
            ("key", f"S{key_length}"),
            ("at_length", ">i4"),
            ("at", ">i8"),
            ("value_length", ">i4"),
            ("value", ">f8"),
        ]
    )


def sample_chunks(world: World, sensors: list[SampledSensor]) -> Iterator[bytes]:
    """The binary COPY stream of every sample: header, a block per sensor, trailer."""
    plan = world.plan
    count = plan.samples_per_sensor
    start = plan.anchor_time - (plan.samples_per_sensor * SAMPLE_STEP)
    offsets = np.arange(count, dtype=np.int64) * int(SAMPLE_STEP.total_seconds() * 1_000_000)
    at = offsets + int((start - _PG_EPOCH).total_seconds() * 1_000_000)
    unix = at + int((_PG_EPOCH - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1_000_000)
    hours = (unix % _MICROSECONDS_PER_DAY) / 3_600_000_000
    weekend = ((unix // _MICROSECONDS_PER_DAY + 3) % 7) >= 5
    daily = np.cos((hours - 20) / 24 * 2 * np.pi)
    yield b"PGCOPY\n\xff\r\n\x00" + bytes(8)
    progress = Progress("sensor_samples", plan.samples)
    for sensor in sensors:
        yield _sensor_block(plan.seed, sensor, at, daily, weekend)
        progress.advance(count)
    progress.finish()
    yield b"\xff\xff"


def _sensor_block(
    seed: int, sensor: SampledSensor, at: np.ndarray, daily: np.ndarray, weekend: np.ndarray
) -> bytes:
    rng = np.random.default_rng([seed, sensor.ordinal])
    channel = sensor.channel
    key = channel_key(channel.name).encode()
    rows = np.empty(len(at), dtype=_row_type(len(key)))
    rows["fields"] = 5
    rows["id_length"] = rows["sensor_length"] = 16
    rows["key_length"] = len(key)
    rows["at_length"] = rows["value_length"] = 8
    ids = rng.integers(0, 256, size=(len(at), 16), dtype=np.uint8)
    # Version 4, RFC 4122 variant: the same shape as the provider's own uuid4 ids.
    ids[:, 6] = (ids[:, 6] & 0x0F) | 0x40
    ids[:, 8] = (ids[:, 8] & 0x3F) | 0x80
    rows["id"] = ids.view("V16").ravel()
    rows["sensor"] = np.frombuffer(sensor.id.bytes, dtype="V16")[0]
    rows["key"] = key
    rows["at"] = at
    quiet = np.where(weekend & (channel.daily_swing > 0), 0.75, 1.0)
    expected = sensor.baseline * (1 + channel.daily_swing * daily) * quiet
    noise = rng.normal(0.0, abs(sensor.baseline) * channel.noise, len(at))
    rows["value"] = np.round(expected + noise, 3)
    return rows.tobytes()
