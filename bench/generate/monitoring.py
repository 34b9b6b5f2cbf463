"""Monitoring sensors with their chart legends, and a year of five-minute history for some.

Each sampled sensor's year of five-minute values is built with NumPy, then written as the
schema keeps it (docs/decisions/sensor-rollups.md): the last 48 hours as raw samples, the last
31 days as hourly roll-ups and the whole year as daily ones, each hour and day with the
minimum, maximum, sum and count the roll-up job would have written; straight into
PostgreSQL's binary COPY format.
"""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
import psycopg

from bench.generate.plan import HOURLY_ROLLUP_PERIOD, RAW_SAMPLE_PERIOD, SAMPLE_STEP
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
    reading_text,
)
from portal.provider.platform.models import SensorStatus

SENSOR_COLUMNS = (
    "id", "reference", "company_id", "group", "device", "name", "status", "priority", "favorite",
    "value", "is_lookup", "desc", "desc_value", "position", "tags", "client_references",
    "port_label", "service_id",
)  # fmt: skip
SAMPLE_COLUMNS = ("id", "sensor_id", "legend_key", "at", "value")
ROLLUP_COLUMNS = (
    "sensor_id", "resolution", "at", "legend_key", "minimum", "maximum", "total", "count",
)  # fmt: skip
_PER_HOUR = 12  # five-minute samples
_PER_DAY = 24 * _PER_HOUR
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
    value = lookup or reading_text(first.baseline * scale, first.unit)
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
        # The service it watches, the customer's in turn (no draw: the data set stays as it
        # was): a limited user's monitoring is read through it (issue 53).
        customer.service_ids[position % len(customer.service_ids)]
        if customer.service_ids
        else None,
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


def _rollup_row_type(key_length: int, resolution_length: int) -> np.dtype:
    return np.dtype(
        [
            ("fields", ">i2"),
            ("sensor_length", ">i4"),
            ("sensor", "V16"),
            ("resolution_length", ">i4"),
            ("resolution", f"S{resolution_length}"),
            ("at_length", ">i4"),
            ("at", ">i8"),
            ("key_length", ">i4"),
            ("key", f"S{key_length}"),
            ("minimum_length", ">i4"),
            ("minimum", ">f8"),
            ("maximum_length", ">i4"),
            ("maximum", ">f8"),
            ("total_length", ">i4"),
            ("total", ">f8"),
            ("count_length", ">i4"),
            ("count", ">i4"),
        ]
    )


@dataclass
class SampleStreams:
    """The binary COPY streams of the samples and of the roll-ups, built in one pass."""

    rollups: list[bytes]


def sample_chunks(
    world: World, sensors: list[SampledSensor], streams: SampleStreams
) -> Iterator[bytes]:
    """The binary COPY stream of the raw samples (header, a block per sensor, trailer); each
    sensor's roll-ups are added to ``streams.rollups`` on the way."""
    plan = world.plan
    count = plan.samples_per_sensor
    start = plan.anchor_time - (plan.samples_per_sensor * SAMPLE_STEP)
    offsets = np.arange(count, dtype=np.int64) * int(SAMPLE_STEP.total_seconds() * 1_000_000)
    at = offsets + int((start - _PG_EPOCH).total_seconds() * 1_000_000)
    unix = at + int((_PG_EPOCH - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1_000_000)
    hours = (unix % _MICROSECONDS_PER_DAY) / 3_600_000_000
    weekend = ((unix // _MICROSECONDS_PER_DAY + 3) % 7) >= 5
    daily = np.cos((hours - 20) / 24 * 2 * np.pi)
    raw = int(RAW_SAMPLE_PERIOD / SAMPLE_STEP)
    hourly = int(HOURLY_ROLLUP_PERIOD / SAMPLE_STEP)
    streams.rollups = [_COPY_HEADER]
    yield _COPY_HEADER
    progress = Progress("sensor_samples", plan.sampled_sensors * count)
    for sensor in sensors:
        rows, values = _sensor_block(plan.seed, sensor, at, daily, weekend)
        yield rows[-raw:].tobytes()
        key = channel_key(sensor.channel.name).encode()
        last_month = slice(len(at) - hourly, None)
        streams.rollups.append(
            _rollups(sensor, key, b"hour", at[last_month], values[last_month], _PER_HOUR)
        )
        streams.rollups.append(_rollups(sensor, key, b"day", at, values, _PER_DAY))
        progress.advance(count)
    progress.finish()
    streams.rollups.append(_COPY_TRAILER)
    yield _COPY_TRAILER


_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)
_COPY_TRAILER = b"\xff\xff"


def _rollups(
    sensor: SampledSensor, key: bytes, resolution: bytes, at: np.ndarray, values: np.ndarray,
    per_period: int,
) -> bytes:  # fmt: skip
    """Periods of ``per_period`` samples summed up as the roll-up job sums them."""
    periods = values.reshape(-1, per_period)
    rows = np.empty(len(periods), dtype=_rollup_row_type(len(key), len(resolution)))
    rows["fields"] = 8
    rows["sensor_length"] = 16
    rows["sensor"] = np.frombuffer(sensor.id.bytes, dtype="V16")[0]
    rows["resolution_length"] = len(resolution)
    rows["resolution"] = resolution
    rows["at_length"] = 8
    rows["at"] = at[::per_period]
    rows["key_length"] = len(key)
    rows["key"] = key
    rows["minimum_length"] = rows["maximum_length"] = rows["total_length"] = 8
    rows["minimum"] = periods.min(axis=1)
    rows["maximum"] = periods.max(axis=1)
    rows["total"] = periods.sum(axis=1)
    rows["count_length"] = 4
    rows["count"] = per_period
    return rows.tobytes()


def _sensor_block(
    seed: int, sensor: SampledSensor, at: np.ndarray, daily: np.ndarray, weekend: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The sensor's year of samples as binary COPY rows, and their values."""
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
    return rows, rows["value"].astype(np.float64)


def mark_rollups(connection: psycopg.Connection, anchor: datetime) -> None:
    """The roll-up job's marks: it has summed up every hour and day before the anchor, so its
    first run on this data set sums only the last hour and day again."""
    connection.execute(
        "INSERT INTO sensor_rollup_marks (resolution, at) VALUES (%s, %s), (%s, %s)",
        ("hour", anchor - timedelta(hours=1), "day", anchor - timedelta(days=1)),
    )
