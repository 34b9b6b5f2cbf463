"""A redis-server of a test's own, on a spare port, that the test stops and starts again: the
machine's shared Redis is never touched."""

import os
import subprocess
import time
from pathlib import Path

import redis

from tests.ports import free_port

START_SECONDS = 10


class RedisServer:
    """``durable``: an append-only file in ``directory`` keeps the data across a restart, as
    docs/decisions/operations-faults.md advises for production; otherwise a restart loses it."""

    def __init__(self, directory: Path, *, durable: bool = False) -> None:
        self.directory = directory
        self.durable = durable
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self._process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes" if self.durable else "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, start_new_session=True, env=_without_moved_clock(),
        )  # fmt: skip
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                redis.Redis(port=self.port).ping()
                return
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait(10)


def _without_moved_clock() -> dict[str, str]:
    """CI moves the tests' clock with libfaketime, which redis-server cannot start under (its
    clock_gettime recursion breaks); Redis is a service beside the portal, like PostgreSQL, and
    keeps the real time."""
    return {name: value for name, value in os.environ.items() if name != "LD_PRELOAD"}
