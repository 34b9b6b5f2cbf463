"""The sensors' time series, inserted in bulk, as the roll-up job keeps them: raw samples over
the last 48 hours (every five minutes for the showcase sensors, hourly then every five minutes
over the last two hours for the others), hourly roll-ups over 31 days and daily ones over a
year before that; then the roll-up job itself sums up the raw samples' hours and days."""

from datetime import datetime, timedelta
from typing import cast

import psycopg
import sqlalchemy as sa
from psycopg import sql as psycopg_sql

from portal.provider.demo_data.build_monitoring import DemoSensor, channel_key
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import ACME, GLOBEX
from portal.provider.demo_data.samples import (
    DAY,
    FIVE_MINUTES,
    HOUR,
    Incident,
    moments,
    rollup_rows,
    sample_rows,
)
from portal.provider.monitoring.rollup import (
    DAYS_KEPT,
    HOURS_KEPT,
    RAW_KEPT,
    day_of,
    hour_of,
    roll_up,
)
from portal.provider.platform.models import (
    RollupResolution,
    SensorRollupMark,
    SensorStatus,
    metadata,
)

# (company, template kind) pairs whose first sensor has five-minute samples over 48 hours and
# an incident in its history.
FULL_HISTORY = {
    (ACME, "traffic"),
    (ACME, "latency"),
    (ACME, "optical_power"),
    (ACME, "temperature"),
    (GLOBEX, "traffic"),
}
# What an incident does to each kind: traffic falls, the round trip climbs.
_INCIDENT_FACTOR = {"traffic": 0.05, "latency": 7.0, "optical_power": 1.6, "temperature": 1.15}
# A failing sensor has measured nothing (zero) for this long.
OUTAGE = timedelta(minutes=30)
_BATCH = 20_000
RECENT_HOURS = 7 * 24
RECENT_DAYS = 90


def _incidents(now: datetime, kind: str) -> tuple[Incident, ...]:
    """A 45-minute cut yesterday evening and a four-hour one nine days ago."""
    factor = _INCIDENT_FACTOR.get(kind)
    if factor is None:
        return ()
    recent = hour_of(now) - timedelta(hours=21) + timedelta(minutes=10)
    older = day_of(now) - timedelta(days=9) + timedelta(hours=13)
    return (
        Incident(recent, recent + timedelta(minutes=45), factor),
        Incident(older, older + timedelta(hours=4), factor),
    )


def build_samples(context: SeedContext, sensors: list[DemoSensor]) -> int:
    """Insert every sample and roll-up, then run the roll-up job; answers how many samples."""
    rng, now = context.rng, context.now
    raw_from = hour_of(now) - RAW_KEPT
    detailed = list(moments(raw_from, now + FIVE_MINUTES, FIVE_MINUTES))
    recent = [
        *moments(raw_from, now - timedelta(hours=2), HOUR),
        *moments(now - timedelta(hours=2), now + FIVE_MINUTES, FIVE_MINUTES),
    ]
    hours = list(moments(day_of(now) - HOURS_KEPT, raw_from, HOUR))
    days = list(moments(day_of(now) - DAYS_KEPT + DAY, day_of(raw_from), DAY))
    pending = set(FULL_HISTORY)
    samples: list[dict[str, object]] = []
    rollups: list[dict[str, object]] = []
    total = 0
    for demo in sensors:
        key = (demo.company, demo.template.kind)
        # The showcase is the company's first sensor of that kind that is measuring.
        full = key in pending and demo.sensor.status in (SensorStatus.UP, SensorStatus.WARNING)
        if full:
            pending.discard(key)
        times = detailed if full else recent
        # The others' history is shorter: hourly over a week, daily over three months.
        hour_starts = hours if full else hours[-RECENT_HOURS:]
        day_starts = days if full else days[-RECENT_DAYS:]
        if demo.sensor.status is SensorStatus.PAUSED:
            # The monitoring system stopped polling a paused sensor a few days ago.
            paused_at = now - timedelta(days=rng.randint(3, 5))
            times = [at for at in times if at < paused_at]
            hour_starts = [at for at in hours if at + HOUR <= paused_at]
            day_starts = [at for at in days if at + DAY <= paused_at]
        failing = demo.sensor.status is SensorStatus.DOWN or (
            demo.sensor.is_lookup and demo.sensor.value != "up"
        )
        silent_from = now - OUTAGE if failing else None
        incidents = _incidents(now, demo.template.kind) if full else ()
        for channel in demo.channels:
            legend_key = channel_key(channel.name)
            samples += sample_rows(
                rng, demo.sensor.id, legend_key, channel, times, silent_from, incidents
            )
            for resolution, starts in (("hour", hour_starts), ("day", day_starts)):
                rollups += rollup_rows(
                    rng, demo.sensor.id, legend_key, channel, resolution, starts, incidents
                )
        if len(samples) + len(rollups) >= _BATCH:
            total += _insert(context, "sensor_samples", samples)
            _insert(context, "sensor_rollups", rollups)
            samples, rollups = [], []
    total += _insert(context, "sensor_samples", samples)
    _insert(context, "sensor_rollups", rollups)
    # The roll-ups written above end where the raw samples begin: the job sums up the rest.
    context.session.add_all(
        [
            SensorRollupMark(resolution=RollupResolution.HOUR, at=raw_from),
            SensorRollupMark(resolution=RollupResolution.DAY, at=day_of(raw_from)),
        ]
    )
    context.session.flush()
    roll_up(context.session, now)
    return total


def _insert(context: SeedContext, table: str, rows: list[dict[str, object]]) -> int:
    if not rows:
        return 0
    connection = context.session.connection()
    if connection.dialect.name == "postgresql":
        # COPY in the session's transaction: psycopg's executemany sends one INSERT per row,
        # which made the samples three quarters of the seed (and of every reset-demo).
        columns = list(rows[0])
        statement = psycopg_sql.SQL("COPY {} ({}) FROM STDIN").format(
            psycopg_sql.Identifier(table),
            psycopg_sql.SQL(", ").join(map(psycopg_sql.Identifier, columns)),
        )
        driver = cast(psycopg.Connection, connection.connection.driver_connection)
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row([row[column] for column in columns])
    else:
        # A Core insert of the table: the ORM's bulk path costs twice as long for nothing here.
        context.session.exec(sa.insert(metadata.tables[table]), params=rows)
    return len(rows)
