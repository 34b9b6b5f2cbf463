"""wrk, the load generator: a warm-up, then the runs, each summarised by ``report.lua``."""

import json
import os
import shutil
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).with_name("report.lua")


class WrkMissing(RuntimeError):
    pass


def ensure_wrk() -> str:
    """wrk from Debian's package, installed when missing and allowed (root)."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "wrk"], check=False, capture_output=True)
        found = shutil.which("wrk")
        if found:
            return found
    raise WrkMissing("wrk is missing: install Debian's package (sudo apt-get install -y wrk)")


@dataclass
class Run:
    requests: int
    seconds: float
    bytes: int
    failed: int
    p50_ms: float
    p95_ms: float
    p99_ms: float

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def run_wrk(
    url: str,
    connections: int,
    seconds: float,
    headers: dict[str, str],
    method: str = "GET",
    body: Path | None = None,
    timeout: int = 60,
) -> Run:
    command = [
        ensure_wrk(),
        f"--threads={min(2, connections)}",
        f"--connections={connections}",
        f"--duration={max(1, round(seconds))}s",
        f"--timeout={timeout}s",
        f"--script={SCRIPT}",
    ]
    for name, value in headers.items():
        command += ["--header", f"{name}: {value}"]
    env = {**os.environ, "BENCH_METHOD": method, "BENCH_BODY": str(body or "")}
    output = subprocess.run(
        [*command, url], capture_output=True, text=True, env=env, check=True
    ).stdout
    line = next(line for line in output.splitlines() if line.startswith("BENCH "))
    data = json.loads(line[len("BENCH ") :])
    return Run(
        requests=data["requests"],
        seconds=data["duration_us"] / 1e6,
        bytes=data["bytes"],
        failed=data["non_2xx"] + data["connect"] + data["read"] + data["write"] + data["timeout"],
        p50_ms=data["p50_us"] / 1000,
        p95_ms=data["p95_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
    )


@dataclass
class Measure:
    """The median of the runs for each figure, and every run as measured."""

    connections: int
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    failed: int
    runs: list[Run]


def measure(
    url: str,
    connections: int,
    headers: dict[str, str],
    method: str,
    body: Path | None,
    warmup: float,
    seconds: float,
    runs: int,
) -> Measure:
    if warmup > 0:
        run_wrk(url, connections, warmup, headers, method, body)
    done = [run_wrk(url, connections, seconds, headers, method, body) for _ in range(runs)]
    return Measure(
        connections=connections,
        rps=statistics.median(run.rps for run in done),
        p50_ms=statistics.median(run.p50_ms for run in done),
        p95_ms=statistics.median(run.p95_ms for run in done),
        p99_ms=statistics.median(run.p99_ms for run in done),
        failed=sum(run.failed for run in done),
        runs=done,
    )
