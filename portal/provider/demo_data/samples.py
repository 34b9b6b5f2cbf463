"""Time series of the demo sensors: a daily rhythm, a quieter weekend, a little noise, and an
incident now and then.

Raw samples cover the last 48 hours, as the roll-up job keeps them; older history is written
straight as the hourly and daily roll-ups the job would have made of it (min, max, sum, count),
so a year costs a few hundred rows per channel instead of a hundred thousand.
"""

import math
import random
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import NamedTuple

from portal.provider.demo_data.sensors import Channel

FIVE_MINUTES = timedelta(minutes=5)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


class Incident(NamedTuple):
    """From ``start`` to ``end`` the channel reads ``factor`` times its usual value."""

    start: datetime
    end: datetime
    factor: float

    def covers(self, at: datetime, length: timedelta = timedelta(0)) -> bool:
        return at < self.end and at + length > self.start


def expected_value(channel: Channel, at: datetime) -> float:
    """The value without noise: highest around 20:00 UTC, a quarter lower at weekends."""
    hour = at.hour + at.minute / 60
    daily = math.cos((hour - 20) / 24 * 2 * math.pi)
    weekend = 0.75 if at.weekday() >= 5 and channel.daily_swing else 1.0
    return channel.baseline * (1 + channel.daily_swing * daily) * weekend


def moments(start: datetime, end: datetime, step: timedelta) -> Iterator[datetime]:
    at = start
    while at < end:
        yield at
        at += step


def _reading(
    rng: random.Random, channel: Channel, at: datetime, incidents: tuple[Incident, ...]
) -> float:
    value = expected_value(channel, at) + rng.gauss(0, abs(channel.baseline) * channel.noise)
    for incident in incidents:
        if incident.covers(at, FIVE_MINUTES):
            value *= incident.factor
    return value


def sample_rows(
    rng: random.Random,
    sensor_id: uuid.UUID,
    legend_key: str,
    channel: Channel,
    times: list[datetime],
    silent_from: datetime | None = None,
    incidents: tuple[Incident, ...] = (),
) -> list[dict[str, object]]:
    """Rows ready for one bulk insert of ``SensorSample``; from ``silent_from`` on, the sensor
    measures nothing (zero)."""
    return [
        {
            "id": uuid.UUID(int=rng.getrandbits(128), version=4),
            "sensor_id": sensor_id,
            "legend_key": legend_key,
            "at": at,
            "value": 0.0
            if silent_from and at >= silent_from
            else round(_reading(rng, channel, at, incidents), 3),
        }
        for at in times
    ]


def rollup_rows(
    rng: random.Random,
    sensor_id: uuid.UUID,
    legend_key: str,
    channel: Channel,
    resolution: str,
    starts: list[datetime],
    incidents: tuple[Incident, ...] = (),
) -> list[dict[str, object]]:
    """Rows of ``SensorRollup``: each hour or day as twelve (or 288) five-minute samples would
    have summed up: its average from the curve at mid-period, its lows and highs from the
    swing within it and the noise."""
    length = HOUR if resolution == "hour" else DAY
    count = int(length / FIVE_MINUTES)
    spread = abs(channel.baseline) * channel.noise
    rows: list[dict[str, object]] = []
    for start in starts:
        if resolution == "hour":
            average = expected_value(channel, start + length / 2)
            low, high = average - 2 * spread, average + 2 * spread
        else:
            weekend = 0.75 if start.weekday() >= 5 and channel.daily_swing else 1.0
            average = channel.baseline * weekend
            swing = abs(channel.baseline) * channel.daily_swing * weekend
            low, high = average - swing - 2 * spread, average + swing + 2 * spread
        average += rng.gauss(0, spread / 3)
        for incident in incidents:
            if incident.covers(start, length):
                share = min(incident.end, start + length) - max(incident.start, start)
                average *= 1 + (incident.factor - 1) * (share / length)
                during = expected_value(channel, max(incident.start, start)) * incident.factor
                low, high = min(low, during), max(high, during)
        low, high = min(low, high), max(low, high)
        rows.append(
            {
                "sensor_id": sensor_id,
                "resolution": resolution,
                "at": start,
                "legend_key": legend_key,
                "minimum": round(min(low, average), 3),
                "maximum": round(max(high, average), 3),
                "total": round(average * count, 3),
                "count": count,
            }
        )
    return rows
