"""The sensors' time series, inserted in bulk: a year of hourly samples and the last 48 hours
every five minutes for a few showcase sensors; the last week hourly and the last two hours
every five minutes for the others."""

from datetime import datetime, timedelta
from typing import cast

import psycopg
import sqlalchemy as sa
from psycopg import sql as psycopg_sql

from portal.provider.demo_data.build_monitoring import DemoSensor, channel_key
from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import ACME, GLOBEX
from portal.provider.demo_data.samples import FIVE_MINUTES, HOUR, moments, sample_rows
from portal.provider.models import SensorStatus, metadata

# (company, template kind) pairs whose first sensor keeps a full year of history.
FULL_HISTORY = {
    (ACME, "traffic"),
    (ACME, "latency"),
    (ACME, "optical_power"),
    (ACME, "temperature"),
    (GLOBEX, "traffic"),
}
# A failing sensor has measured nothing (zero) for this long.
OUTAGE = timedelta(minutes=30)
_BATCH = 20_000


def _timeline(now: datetime, history: timedelta, detail: timedelta) -> list[datetime]:
    """Hourly points over ``history`` then five-minute points over the last ``detail``."""
    detailed_from = now - detail
    return [
        *moments(now - history, detailed_from, HOUR),
        *moments(detailed_from, now + FIVE_MINUTES, FIVE_MINUTES),
    ]


def build_samples(context: SeedContext, sensors: list[DemoSensor]) -> int:
    """Insert every sample; answers how many."""
    rng = context.rng
    full = _timeline(context.now, timedelta(days=365), timedelta(hours=48))
    short = _timeline(context.now, timedelta(days=7), timedelta(hours=2))
    pending = set(FULL_HISTORY)
    rows: list[dict[str, object]] = []
    total = 0
    for demo in sensors:
        key = (demo.company, demo.template.kind)
        times = full if key in pending else short
        pending.discard(key)
        if demo.sensor.status is SensorStatus.PAUSED:
            # The monitoring system stopped polling a paused sensor a few days ago.
            paused_at = context.now - timedelta(days=rng.randint(1, 5))
            times = [at for at in times if at < paused_at]
        failing = demo.sensor.status is SensorStatus.DOWN or (
            demo.sensor.is_lookup and demo.sensor.value != "up"
        )
        silent_from = context.now - OUTAGE if failing else None
        for channel in demo.channels:
            legend_key = channel_key(channel.name)
            rows += sample_rows(rng, demo.sensor.id, legend_key, channel, times, silent_from)
        if len(rows) >= _BATCH:
            total += _insert(context, rows)
            rows = []
    return total + _insert(context, rows)


def _insert(context: SeedContext, rows: list[dict[str, object]]) -> int:
    if not rows:
        return 0
    connection = context.session.connection()
    if connection.dialect.name == "postgresql":
        # COPY in the session's transaction: psycopg's executemany sends one INSERT per row,
        # which made the samples three quarters of the seed (and of every reset-demo).
        columns = list(rows[0])
        statement = psycopg_sql.SQL("COPY sensor_samples ({}) FROM STDIN").format(
            psycopg_sql.SQL(", ").join(map(psycopg_sql.Identifier, columns))
        )
        driver = cast(psycopg.Connection, connection.connection.driver_connection)
        with driver.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row([row[column] for column in columns])
    else:
        # A Core insert of the table: the ORM's bulk path costs twice as long for nothing here.
        context.session.exec(sa.insert(metadata.tables["sensor_samples"]), params=rows)
    return len(rows)
