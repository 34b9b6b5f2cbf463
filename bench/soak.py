"""The soak (issue 56, item 4): the production server watched for half an hour under a steady load.

``make soak`` (``python -m bench.soak --minutes 30``) starts ``python -m portal.serve`` (two
workers, backend only: the simulated browsers need no built page) on the PostgreSQL database of
``DATABASE_URL``, which it fills with the demo, and on a redis-server of its own (Redis counts
its memory for the whole server). The load is the benchmark's parts: 50 simulated browsers
(``bench/run/browsers.py``) that log in once, then load the home page (a new websocket), open the
services list, filter and page it and go back home, again and again with their think times; and
four API readers that read the provider's lists and items over HTTP. Every ``SAMPLE_SECONDS`` it
reads each worker's resident memory, Redis's ``used_memory``, the database's connections, the
server's open file descriptors, the 95th percentile of the interactions and reads that ended
since the previous sample, and the bytes the server logged.

Anything that grows without bound fails the soak: a least-squares line through the samples of
the steady part (after the first third: the arrival, the workers' first use of each path) whose
slope, two standard errors below its estimate, still grows by more than ``GROWTH_PER_HOUR`` of
the series' mean level per hour. A level that wobbles has no such slope; a leak has one. The
report (Markdown, the samples as JSON and one SVG chart per series) goes to ``bench/results``.
"""

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import httpx
import numpy as np
import psutil
import psycopg
import redis

from bench.run.browsers import Browser, Timings
from bench.run.servers import ROOT, free_port
from portal.provider.demo_data.people import DEMO_PASSWORD

RESULTS = ROOT / "bench" / "results"
SAMPLE_SECONDS = 10
BROWSERS = 50
READERS = 4
THINK_SECONDS = 2.0
READER_PAUSE_SECONDS = 0.5
EMAIL = "alice@acme-networks.test"
# The steady part starts after this share of the run.
WARMUP_SHARE = 1 / 3
# Growth per hour, as a share of the series' mean, above which a rising slope fails the soak.
GROWTH_PER_HOUR = {
    "worker RSS (MiB)": 0.10,
    "Redis used_memory (MiB)": 0.10,
    "PostgreSQL connections": 0.10,
    "open file descriptors": 0.10,
    "p95 latency (ms)": 0.25,
    "log bytes per minute": 0.10,
}
READS = (
    "/provider/api/services?itemsPerPage=20",
    "/provider/api/invoices?itemsPerPage=20",
    "/provider/api/tickets?itemsPerPage=20",
    "/provider/api/maintenances?itemsPerPage=20",
)


@dataclass
class Sample:
    seconds: float
    worker_rss_mib: list[float]
    redis_mib: float
    pg_connections: int
    open_fds: int
    p95_ms: float | None
    log_bytes_per_minute: float
    errors: int

    def series(self) -> dict[str, float | None]:
        return {
            "worker RSS (MiB)": max(self.worker_rss_mib, default=0.0),
            "Redis used_memory (MiB)": self.redis_mib,
            "PostgreSQL connections": float(self.pg_connections),
            "open file descriptors": float(self.open_fds),
            "p95 latency (ms)": self.p95_ms,
            "log bytes per minute": self.log_bytes_per_minute,
        }


@dataclass
class Load:
    timings: Timings = field(default_factory=Timings)
    reads: list[tuple[float, float]] = field(default_factory=list)  # (ended, seconds)
    errors: list[str] = field(default_factory=list)


async def _browser(url: str, seed: int, load: Load, stop: asyncio.Event) -> None:
    browser = Browser(url, EMAIL, DEMO_PASSWORD, load.timings, THINK_SECONDS, seed)
    await asyncio.sleep(browser.random.uniform(0, 5 * THINK_SECONDS))  # users arrive spread
    async with httpx.AsyncClient(timeout=120) as http:
        while not stop.is_set():
            try:
                if browser.socket is None:
                    await browser.log_in(http)
                cookie = browser.socket.cookie if browser.socket else ""
                await browser._connect("/", cookie)  # a full page load: a new websocket
                await browser.browse_services()
                await browser.back_home()
            except Exception as error:  # reported; the browser logs in again
                load.errors.append(f"browser {seed}, {browser.step}: {type(error).__name__}")
                if browser.socket is not None:
                    await browser.socket.close()
                browser.socket = None
    await browser.close()


async def _reader(url: str, number: int, load: Load, stop: asyncio.Event) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120, headers={"Origin": url}) as client:
        answer = await client.post(
            "/provider/login", json={"username": EMAIL, "password": DEMO_PASSWORD}
        )
        answer.raise_for_status()
        turn = number
        while not stop.is_set():
            path = READS[turn % len(READS)]
            turn += 1
            started = time.perf_counter()
            try:
                answer = await client.get(path)
                answer.raise_for_status()
            except httpx.HTTPError as error:
                load.errors.append(f"reader {number}, {path}: {type(error).__name__}")
            else:
                load.reads.append((time.perf_counter(), time.perf_counter() - started))
            await asyncio.sleep(READER_PAUSE_SECONDS)


class Probe:
    """Reads the server's processes, Redis and PostgreSQL."""

    def __init__(self, server: subprocess.Popen[bytes], redis_url: str, database_url: str,
                 log: Path, load: Load) -> None:  # fmt: skip
        self.server = psutil.Process(server.pid)
        self.redis = redis.Redis.from_url(redis_url)
        self.database_url = database_url
        self.database = database_url.rsplit("/", 1)[-1]
        self.log = log
        self.load = load
        self.started = time.perf_counter()
        self.last = (self.started, log.stat().st_size)

    def _latencies_since(self, since: float) -> list[float]:
        ended = [s for samples in self.load.timings.samples.values() for s in samples]
        return [seconds for moment, seconds in ended + self.load.reads if moment > since]

    def sample(self) -> Sample:
        now = time.perf_counter()
        processes = [self.server, *self.server.children(recursive=True)]
        workers = [p for p in processes if p.pid != self.server.pid]
        with psycopg.connect(self.database_url) as db:
            row = db.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.database,)
            ).fetchone()
        size = self.log.stat().st_size
        since, before = self.last
        self.last = (now, size)
        latencies = sorted(self._latencies_since(since))
        return Sample(
            seconds=now - self.started,
            worker_rss_mib=[p.memory_info().rss / 2**20 for p in workers],
            redis_mib=int(cast(dict[str, Any], self.redis.info("memory"))["used_memory"]) / 2**20,
            pg_connections=int(row[0]) if row else 0,
            open_fds=sum(p.num_fds() for p in processes),
            p95_ms=latencies[round(0.95 * (len(latencies) - 1))] * 1000 if latencies else None,
            log_bytes_per_minute=(size - before) / (now - since) * 60,
            errors=len(self.load.errors),
        )


def verdict(samples: list[Sample]) -> list[dict[str, Any]]:
    """Each series' slope over the steady part and whether it grows without bound."""
    steady = samples[int(len(samples) * WARMUP_SHARE) :]
    rows = []
    for name, allowed in GROWTH_PER_HOUR.items():
        points = [(s.seconds / 3600, s.series()[name]) for s in steady]
        hours = np.array([h for h, v in points if v is not None])
        values = np.array([v for _, v in points if v is not None])
        if len(values) < 3:
            rows.append({"series": name, "verdict": "too few samples"})
            continue
        (slope, _intercept), covariance = np.polyfit(hours, values, 1, cov=True)
        error = float(np.sqrt(covariance[0][0]))
        mean = float(values.mean())
        limit = allowed * max(abs(mean), 1e-9)
        grows = slope - 2 * error > limit
        row: dict[str, Any] = {
            "series": name,
            "first": float(values[0]),
            "last": float(values[-1]),
            "mean": mean,
            "slope_per_hour": float(slope),
            "slope_error": error,
            "limit_per_hour": limit,
            "verdict": "grows" if grows else "flat",
        }
        rows.append(row)
    return rows


def _chart(samples: list[Sample], name: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 2.6))
    minutes = [s.seconds / 60 for s in samples]
    nan = float("nan")
    if name == "worker RSS (MiB)":
        for worker in range(max(len(s.worker_rss_mib) for s in samples)):
            values = [s.worker_rss_mib[worker] if worker < len(s.worker_rss_mib) else nan
                      for s in samples]  # fmt: skip
            axes.plot(minutes, values, label=f"worker {worker + 1}")
        axes.legend(loc="lower right", fontsize=8)
    else:
        axes.plot(minutes, [nan if (v := s.series()[name]) is None else v for s in samples])
    axes.axvline(
        samples[int(len(samples) * WARMUP_SHARE)].seconds / 60, color="grey", lw=0.8, ls="--"
    )
    axes.set_title(name, fontsize=10)
    axes.set_xlabel("minutes")
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _report(samples: list[Sample], rows: list[dict[str, Any]], load: Load, minutes: float,
            stamp: str) -> Path:  # fmt: skip
    charts = []
    for number, name in enumerate(GROWTH_PER_HOUR):
        chart = RESULTS / f"soak-{stamp}-{number + 1}.svg"
        _chart(samples, name, chart)
        charts.append((name, chart.name))
    (RESULTS / f"soak-{stamp}.json").write_text(
        json.dumps({"samples": [asdict(s) for s in samples], "verdict": rows}, indent=1)
    )
    interactions = sum(len(v) for v in load.timings.samples.values())
    lines = [
        f"# Soak of {stamp}",
        "",
        f"`python -m bench.soak --minutes {minutes:g}`: {BROWSERS} simulated browsers and {READERS}"
        f" API readers against `python -m portal.serve` (2 workers, PostgreSQL, Redis), one"
        f" sample every {SAMPLE_SECONDS} s, {len(samples)} samples. {interactions} browser"
        f" interactions and {len(load.reads)} API reads; {len(load.errors)} errors.",
        f" Machine: {os.cpu_count()} cores, shared with other work (load average at the end"
        f" {os.getloadavg()[0]:.1f}).",
        "",
        "Slope over the steady part (after the first third), per hour; *grows* when, two standard"
        " errors below its estimate, it still exceeds the limit (a share of the series' mean).",
        "",
        "| series | first | last | mean | slope / h | ± | limit / h | verdict |",
        "|---|--:|--:|--:|--:|--:|--:|---|",
    ]
    for row in rows:
        if "mean" not in row:
            lines.append(f"| {row['series']} | | | | | | | {row['verdict']} |")
            continue
        lines.append(
            f"| {row['series']} | {row['first']:.1f} | {row['last']:.1f} | {row['mean']:.1f}"
            f" | {row['slope_per_hour']:+.2f} | {row['slope_error']:.2f}"
            f" | {row['limit_per_hour']:.2f} | {row['verdict']} |"
        )
    if load.errors:
        kinds: dict[str, int] = {}
        for error in load.errors:
            kind = error.split(", ", 1)[-1]
            kinds[kind] = kinds.get(kind, 0) + 1
        lines += ["", "Errors by kind: " + "; ".join(f"{k} × {n}" for k, n in kinds.items())]
    lines += ["", *(f"![{name}]({chart})" for name, chart in charts), ""]
    report = RESULTS / f"soak-{stamp}.md"
    report.write_text("\n".join(lines))
    return report


async def _run(url: str, probe: Probe, load: Load, minutes: float) -> list[Sample]:
    stop = asyncio.Event()
    clients = [asyncio.create_task(_browser(url, seed, load, stop)) for seed in range(BROWSERS)]
    clients += [asyncio.create_task(_reader(url, n, load, stop)) for n in range(READERS)]
    samples = []
    end = time.perf_counter() + minutes * 60
    while time.perf_counter() < end:
        await asyncio.sleep(SAMPLE_SECONDS)
        samples.append(await asyncio.to_thread(probe.sample))
        print(f"{samples[-1].seconds / 60:5.1f} min  {samples[-1].series()}", flush=True)
    stop.set()
    await asyncio.wait(clients, timeout=180)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak")
    parser.add_argument("--minutes", type=float, default=30)
    arguments = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        sys.exit("The soak runs on PostgreSQL: set DATABASE_URL (its database is emptied).")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    work = Path(tempfile.mkdtemp(prefix=f"patchbay-soak-{stamp}-"))
    redis_port = free_port()
    redis_server = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(work)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "ENVIRONMENT": "production",
        "SECRET_KEY": secrets.token_urlsafe(32),
        "SECOND_FACTOR_REQUIRED": "false",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "PORTAL_PUBLIC_URL": url,
        "GRANIAN_WORKERS": "2",
        "DATA_DIR": str(work / "data"),
        "LOG_FORMAT": "json",
    }
    subprocess.run(
        [sys.executable, "-m", "portal.provider", "reset-demo"],
        cwd=ROOT, env={**env, "ENVIRONMENT": "development"}, check=True,
    )  # fmt: skip
    log = work / "portal.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [sys.executable, "-m", "portal.serve", "--no-frontend", "--port", str(port)],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while not _ready(url):
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"The server did not start:\n{log.read_text()[-3000:]}")
            time.sleep(1)
        load = Load()
        probe = Probe(server, env["REDIS_URL"], database_url, log, load)
        samples = asyncio.run(_run(url, probe, load, arguments.minutes))
    finally:
        server.terminate()
        server.wait(120)
        redis_server.terminate()
        redis_server.wait(30)
    rows = verdict(samples)
    report = _report(samples, rows, load, arguments.minutes, stamp)
    print(report.read_text())
    growing = [row["series"] for row in rows if row["verdict"] == "grows"]
    if growing:
        print(f"Grows without bound: {', '.join(growing)}", file=sys.stderr)
        return 1
    return 0


def _ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


if __name__ == "__main__":
    sys.exit(main())
