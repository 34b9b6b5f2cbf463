"""Charts drawn once for the same points, span, language, time zone and minute.

Drawing is a chart request's cost: matplotlib takes 20–40 ms for any span, one chart at a time
in a worker (its figure is shared, under ``chart._lock``), where reading the points takes a few
milliseconds. The chart's time axis ends at the next whole minute rather than at the request's
instant, so that requests of the same minute draw the same chart: several people watching a
sensor, the same person switching spans back and forth. Each worker keeps the charts it drew
last, keyed by the sensor and a digest of the points themselves, so a new sample or a changed
legend draws anew at once (docs/decisions/drawn-charts.md).
"""

import hashlib
import threading
import uuid
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime, timedelta

from portal.provider.monitoring.chart import ChartRequest, Series, render_chart

# The time axis moves by whole minutes: less than a pixel of a 48-hour chart, under 1 % of a
# 2-hour one; the chart's points are up to the request's instant all the same.
AXIS_STEP = timedelta(minutes=1)
# About 50 KiB a chart: a few megabytes a worker.
KEPT = 128


def chart_end(now: datetime) -> datetime:
    """Where a chart drawn at ``now`` ends: the next whole minute (``now`` when it is one). The
    SVG and the chart's data (its readout) take the same, so they describe the same axis."""
    floor = now.replace(second=0, microsecond=0)
    return floor if floor == now else floor + AXIS_STEP


def _digest(series: Sequence[Series]) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    for channel in series:
        for text in (channel.key, channel.name, channel.unit, channel.color):
            digest.update(text.encode())
            digest.update(b"\0")
        for points in (channel.times, channel.values, channel.lows, channel.highs):
            digest.update(len(points).to_bytes(4, "little"))
            digest.update(array("d", points).tobytes())
    return digest.digest()


class DrawnCharts:
    """The last ``kept`` charts this process drew, the least recently used going first."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._charts: OrderedDict[tuple[object, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    def svg(self, sensor_id: uuid.UUID, series: Sequence[Series], request: ChartRequest) -> str:
        """The chart of ``series`` for ``request``, drawn unless this process has it."""
        key = (
            sensor_id,
            request.span,
            request.end,
            request.language,
            request.zone.key,
            request.layout,
            _digest(series),
        )
        with self._lock:
            drawn = self._charts.get(key)
            if drawn is not None:
                self._charts.move_to_end(key)
                return drawn
        drawn = render_chart(series, request)
        with self._lock:
            self._charts[key] = drawn
            while len(self._charts) > self.kept:
                self._charts.popitem(last=False)
        return drawn


DRAWN = DrawnCharts()
