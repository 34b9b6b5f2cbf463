"""A one-line progress report per step: rows done, rows per second and the time left."""

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, label: str, total: int | None = None, stream: TextIO = sys.stderr) -> None:
        self.label = label
        self.total = total
        self.done = 0
        self.stream = stream
        self.started = time.perf_counter()
        self._shown = self.started
        # A terminal gets one line redrawn in place; a log gets a line every few seconds.
        self._live = stream.isatty()
        self._every = 0.25 if self._live else 5.0

    def advance(self, rows: int = 1) -> None:
        self.done += rows
        now = time.perf_counter()
        if now - self._shown >= self._every:
            self._shown = now
            self._show(now, final=False)

    def finish(self) -> float:
        now = time.perf_counter()
        self._show(now, final=True)
        return now - self.started

    def _show(self, now: float, final: bool) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        line = f"{self.label:<28} {self.done:>12,} rows {rate:>11,.0f} rows/s {elapsed:7.1f} s"
        if self.total and not final:
            left = (self.total - self.done) / rate if rate else 0.0
            line += f"  {100 * self.done / self.total:5.1f} %  ETA {left:5.0f} s"
        if self._live:
            self.stream.write("\r" + line.ljust(100) + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
