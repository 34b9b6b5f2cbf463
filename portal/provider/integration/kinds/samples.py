"""Sensor samples in batches of up to 50 000, keyed on (sensor, channel, time): a sample sent
again updates its value. Validated in bulk like every kind, then written with two statements
executed many times (insert, update) rather than an object per row."""

import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from pydantic import Field
from sqlalchemy import bindparam, insert, update
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    DUPLICATE_IN_BATCH,
    Counts,
    InputModel,
    Reference,
    Text,
    UtcDateTime,
    chunks,
    ids_by,
    path,
    unknown,
)
from portal.provider.platform.errors import Violation
from portal.provider.platform.models import Sensor, SensorLegendEntry, metadata

UNKNOWN_CHANNEL = N_("The sensor has no channel {key} in its legend.")
_TABLE = metadata.tables["sensor_samples"]

Key = tuple[uuid.UUID, str, Any]


class SampleIn(InputModel):
    sensor: Reference = Field(description="Reference of the sensor.")
    key: Text = Field(max_length=60, description="Channel key, from the sensor's legend.")
    at: UtcDateTime = Field(description="ISO 8601; without a zone, UTC.")
    value: float = Field(allow_inf_nan=False)


def check(db: Session, entries: Entries[SampleIn]) -> tuple[Any, list[Violation]]:
    sensors = ids_by(db, Sensor.reference, {item.sensor for _, item in entries})
    channels: set[tuple[uuid.UUID, str]] = set()
    for part in chunks(list(sensors.values())):
        statement = select(SensorLegendEntry.sensor_id, SensorLegendEntry.key).where(
            col(SensorLegendEntry.sensor_id).in_(part)
        )
        channels.update((sensor_id, key) for sensor_id, key in db.exec(statement).all())
    violations: list[Violation] = []
    seen: set[Key] = set()
    for index, item in entries:
        sensor_id = sensors.get(item.sensor)
        if sensor_id is None:
            violations += unknown(index, "sensor", item.sensor, sensors)
            continue
        if (sensor_id, item.key) not in channels:
            violations.append(Violation(path(index, "key"), UNKNOWN_CHANNEL, {"key": item.key}))
        key = (sensor_id, item.key, item.at)
        if key in seen:
            value = f"{item.sensor} {item.key} {item.at.isoformat()}"
            violations.append(Violation(path(index, "at"), DUPLICATE_IN_BATCH, {"value": value}))
        seen.add(key)
    return sensors, violations


def _stored(db: Session, keys: Sequence[Key]) -> dict[Key, tuple[uuid.UUID, float]]:
    """The stored samples among ``keys``, with their id and value. Read by sensor and time
    range (the unique index's order): a batch is usually a stretch of time for some sensors,
    or one moment for many, and either way this reads little more than the keys asked for."""
    wanted = set(keys)
    by_sensor: dict[uuid.UUID, list[Any]] = {}
    for sensor_id, _, at in wanted:
        by_sensor.setdefault(sensor_id, []).append(at)
    found: dict[Key, tuple[uuid.UUID, float]] = {}
    for part in chunks(sorted(by_sensor, key=str)):
        moments = [at for sensor_id in part for at in by_sensor[sensor_id]]
        statement = sa.select(
            _TABLE.c.sensor_id, _TABLE.c.legend_key, _TABLE.c.at, _TABLE.c.id, _TABLE.c.value
        ).where(
            _TABLE.c.sensor_id.in_(part),
            _TABLE.c.at >= min(moments),
            _TABLE.c.at <= max(moments),
        )
        for sensor_id, legend_key, at, sample_id, value in db.execute(statement):
            if (sensor_id, legend_key, at) in wanted:
                found[(sensor_id, legend_key, at)] = (sample_id, value)
    return found


def write(db: Session, entries: Entries[SampleIn], resolved: Any) -> Counts:
    sensors: dict[str, uuid.UUID] = resolved
    wanted = {(sensors[item.sensor], item.key, item.at): item.value for _, item in entries}
    stored = _stored(db, list(wanted))
    inserts, updates = [], []
    counts = Counts()
    for key, value in wanted.items():
        if key not in stored:
            sensor_id, legend_key, at = key
            inserts.append(
                {"id": uuid.uuid4(), "sensor_id": sensor_id, "legend_key": legend_key, "at": at}
                | {"value": value}
            )
            counts.created += 1
        elif stored[key][1] != value:
            updates.append({"sample_id": stored[key][0], "new_value": value})
            counts.updated += 1
        else:
            counts.unchanged += 1
    if inserts:
        db.execute(insert(_TABLE), inserts)
    if updates:
        statement = (
            update(_TABLE)
            .where(_TABLE.c.id == bindparam("sample_id"))
            .values(value=bindparam("new_value"))
        )
        db.execute(statement, updates)
    return counts


KIND = Kind(
    name="sample",
    path="samples",
    model=SampleIn,
    limit=50_000,
    check=check,
    write=write,
    summary="Add or correct sensor samples",
    description="Up to 50 000 samples per batch, keyed on sensor, channel key and time: a "
    "sample sent again replaces the stored value. The channel must be in the sensor's legend.",
    example=[
        {"sensor": "PRTG-40211", "key": "in", "at": "2026-11-23T10:00:00Z", "value": 412.7},
        {"sensor": "PRTG-40211", "key": "out", "at": "2026-11-23T10:00:00Z", "value": 188.2},
    ],
)
