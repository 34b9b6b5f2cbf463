"""The roll-up job: raw samples kept 48 hours, summed up into hours kept 31 days and into days
kept 366 days (docs/decisions/sensor-rollups.md).

Each hour or day keeps the minimum, the maximum, the sum and the number of its samples, so the
average is exact and sums and maxima survive a second roll-up (hours into days). A run sums
again, from scratch, every hour from its mark (the last hour it summed, or ``LATE`` ago if
that is earlier) and every day likewise, so samples arriving up to ``LATE`` late are counted;
then it drops what each resolution no longer needs. The statements are plain SQL on both
databases; only the start of an hour or a day is spelt per dialect.

Run by the provider every ``SENSOR_ROLLUP_MINUTES`` (``run_periodically``, one worker at a time
on PostgreSQL) and by ``python -m portal.provider roll-up``.
"""

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy import CursorResult, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement
from sqlmodel import Session

from portal.provider.platform.models import (
    RollupResolution,
    SensorRollupMark,
    metadata,
)
from portal.settings import get_settings

logger = logging.getLogger(__name__)

RAW_KEPT = timedelta(hours=48)
HOURS_KEPT = timedelta(days=31)
DAYS_KEPT = timedelta(days=366)
# Samples may arrive this late and still be counted in their hour and day.
LATE = timedelta(hours=3)
_ROLLUPS = metadata.tables["sensor_rollups"]
_SAMPLES = metadata.tables["sensor_samples"]
# Any constant: two workers of one database take turns on it (PostgreSQL advisory lock).
_LOCK_KEY = 7_402_115


class period_start(FunctionElement[datetime]):
    """The start (UTC) of the hour or day of a timestamp."""

    type = sa.DateTime(timezone=True)
    inherit_cache = True

    def __init__(self, unit: str, moment: Any) -> None:
        self.unit = unit
        super().__init__(moment)


@compiles(period_start, "postgresql")
def _postgresql_start(element: period_start, compiler: Any, **kw: Any) -> str:
    return f"date_trunc('{element.unit}', {compiler.process(element.clauses, **kw)}, 'UTC')"


@compiles(period_start, "sqlite")
def _sqlite_start(element: period_start, compiler: Any, **kw: Any) -> str:
    # SQLite holds moments as 'YYYY-MM-DD HH:MM:SS.ffffff' text (UTC).
    pattern = "%Y-%m-%d %H:00:00.000000" if element.unit == "hour" else "%Y-%m-%d 00:00:00.000000"
    return f"strftime('{pattern}', {compiler.process(element.clauses, **kw)})"


def hour_of(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def day_of(moment: datetime) -> datetime:
    return hour_of(moment).replace(hour=0)


@dataclass(frozen=True)
class RollupReport:
    hours: int
    days: int
    dropped_samples: int
    dropped_hours: int
    dropped_days: int


def roll_up(session: Session, now: datetime | None = None) -> RollupReport:
    """One run, in the session's transaction (the caller commits)."""
    now = now or datetime.now(UTC)
    hours = _sum_up(session, RollupResolution.HOUR, hour_of(now), hour_of(now - LATE))
    days = _sum_up(session, RollupResolution.DAY, day_of(now), day_of(now - LATE))
    dropped_samples = _drop(session, _SAMPLES.c.at < hour_of(now) - RAW_KEPT)
    dropped_hours = _drop_rollups(session, RollupResolution.HOUR, day_of(now) - HOURS_KEPT)
    dropped_days = _drop_rollups(session, RollupResolution.DAY, day_of(now) - DAYS_KEPT)
    return RollupReport(hours, days, dropped_samples, dropped_hours, dropped_days)


def _sum_up(
    session: Session, resolution: RollupResolution, current: datetime, late: datetime
) -> int:
    """Sums up again every period from the earlier of the mark and ``late``; answers how many
    roll-up rows it wrote."""
    mark = session.get(SensorRollupMark, resolution)
    start = min(_aware(mark.at), late) if mark else None
    source = _source(resolution, start)
    statement = sa.select(
        source.c.sensor_id,
        sa.literal(resolution.value),
        source.c.period,
        source.c.legend_key,
        sa.func.min(source.c.minimum),
        sa.func.max(source.c.maximum),
        sa.func.sum(source.c.total),
        sa.func.sum(source.c.count),
    ).group_by(source.c.sensor_id, source.c.period, source.c.legend_key)
    replaced = _ROLLUPS.delete().where(_ROLLUPS.c.resolution == resolution.value)
    if start is not None:
        replaced = replaced.where(_ROLLUPS.c.at >= start)
    session.execute(replaced)
    columns = ["sensor_id", "resolution", "at", "legend_key", "minimum", "maximum", "total"]
    inserted = _ROLLUPS.insert().from_select([*columns, "count"], statement)
    written = _count(session.execute(inserted))
    if mark is None:
        session.add(SensorRollupMark(resolution=resolution, at=current))
    else:
        mark.at = current
    session.flush()
    return written


def _source(resolution: RollupResolution, start: datetime | None) -> sa.Subquery:
    """What a resolution is summed from: raw samples for hours, hours for days; each row with
    its period and min/max/sum/count columns."""
    if resolution is RollupResolution.HOUR:
        moment = _SAMPLES.c.at
        query = sa.select(
            _SAMPLES.c.sensor_id,
            period_start("hour", moment).label("period"),
            _SAMPLES.c.legend_key,
            _SAMPLES.c.value.label("minimum"),
            _SAMPLES.c.value.label("maximum"),
            _SAMPLES.c.value.label("total"),
            sa.literal(1).label("count"),
        )
    else:
        moment = _ROLLUPS.c.at
        query = sa.select(
            _ROLLUPS.c.sensor_id,
            period_start("day", moment).label("period"),
            _ROLLUPS.c.legend_key,
            _ROLLUPS.c.minimum,
            _ROLLUPS.c.maximum,
            _ROLLUPS.c.total,
            _ROLLUPS.c["count"],
        ).where(_ROLLUPS.c.resolution == RollupResolution.HOUR.value)
    if start is not None:
        query = query.where(moment >= start)
    return query.subquery("source")


def _drop(session: Session, condition: Any) -> int:
    return _count(session.execute(_SAMPLES.delete().where(condition)))


def _drop_rollups(session: Session, resolution: RollupResolution, before: datetime) -> int:
    return _count(
        session.execute(
            _ROLLUPS.delete().where(
                _ROLLUPS.c.resolution == resolution.value, _ROLLUPS.c.at < before
            )
        )
    )


def _count(result: Any) -> int:
    """Rows an INSERT or DELETE touched (a ``CursorResult``; -1 when the driver cannot say)."""
    return max(cast(CursorResult[Any], result).rowcount or 0, 0)


def _aware(moment: datetime) -> datetime:
    """SQLite gives moments back without their zone: they are UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run_once(engine: Engine, now: datetime | None = None) -> RollupReport | None:
    """One run in its own transaction; ``None`` when another worker is running it."""
    with Session(engine) as session:
        if not _run_alone(session):
            return None
        report = roll_up(session, now)
        session.commit()
        return report


def _run_alone(session: Session) -> bool:
    """Whether this run may go, one at a time across workers. PostgreSQL: a transaction's
    advisory lock, not waited for. SQLite: the database's write lock, taken before the run reads
    anything (BEGIN IMMEDIATE) and waited for as long as the busy timeout; a run that read the
    marks before another run's writes could not write after them ("database is locked")."""
    if session.get_bind().dialect.name == "postgresql":
        lock = sa.text("SELECT pg_try_advisory_xact_lock(:key)")
        return bool(session.execute(lock, {"key": _LOCK_KEY}).scalar())
    try:
        session.execute(sa.text("BEGIN IMMEDIATE"))
    except OperationalError:
        return False
    return True


async def run_periodically(engine: Engine) -> None:
    """The provider's own schedule: a run every ``SENSOR_ROLLUP_MINUTES`` (never with 0)."""
    minutes = get_settings().sensor_rollup_minutes
    if minutes <= 0:
        return
    while True:
        try:
            report = await asyncio.to_thread(run_once, engine)
            if report:
                logger.info("Sensor roll-up: %s", report)
        except Exception:
            logger.exception("Sensor roll-up failed; trying again at the next run")
        await asyncio.sleep(minutes * 60)
