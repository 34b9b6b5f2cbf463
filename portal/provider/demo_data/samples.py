"""Time series of the demo sensors: a daily rhythm, a quieter weekend, a little noise."""

import math
import random
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta

from portal.provider.demo_data.sensors import Channel

FIVE_MINUTES = timedelta(minutes=5)
HOUR = timedelta(hours=1)


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


def sample_rows(
    rng: random.Random,
    sensor_id: uuid.UUID,
    legend_key: str,
    channel: Channel,
    times: list[datetime],
    silent_from: datetime | None = None,
) -> list[dict[str, object]]:
    """Rows ready for one bulk insert of ``SensorSample``; from ``silent_from`` on, the sensor
    measures nothing (zero)."""
    spread = abs(channel.baseline) * channel.noise
    return [
        {
            "id": uuid.UUID(int=rng.getrandbits(128), version=4),
            "sensor_id": sensor_id,
            "legend_key": legend_key,
            "at": at,
            "value": 0.0
            if silent_from and at >= silent_from
            else round(expected_value(channel, at) + rng.gauss(0, spread), 3),
        }
        for at in times
    ]
