"""A progress line on stderr for long commands: rows done, rows per second and time left.

On a terminal the line is redrawn in place a few times a second; into a file or a pipe (CI, a
log) a line is written every few seconds instead, so the log stays readable.
"""

import sys
import time
from typing import TextIO

_TTY_INTERVAL = 0.2
_LOG_INTERVAL = 5.0
_WIDTH = 30


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


class Progress:
    def __init__(self, total: int, label: str = "rows", stream: TextIO | None = None) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self._shown = 0.0
        self._shown_done = -1
        self._tty = self.stream.isatty()

    def advance(self, rows: int) -> None:
        self.done += rows
        now = time.monotonic()
        if now - self._shown >= (_TTY_INTERVAL if self._tty else _LOG_INTERVAL):
            self._show(now)

    def close(self) -> None:
        if self._shown_done != self.done or not self._shown:
            self._show(time.monotonic())
        if self._tty:
            self.stream.write("\n")
        self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        share = min(self.done / self.total, 1.0) if self.total else 1.0
        filled = int(share * _WIDTH)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        left = (self.total - self.done) / rate if rate > 0 and self.total > self.done else 0.0
        return (
            f"[{bar}] {share:4.0%} {self.done}/{self.total} {self.label} "
            f"{rate:,.0f} {self.label}/s, elapsed {_duration(elapsed)}, ETA {_duration(left)}"
        )

    def _show(self, now: float) -> None:
        self._shown, self._shown_done = now, self.done
        text = self.line(now)
        self.stream.write(f"\r{text}" if self._tty else f"{text}\n")
        self.stream.flush()
