"""The machine and data set the figures were measured on."""

import os
import platform
import statistics
import time
from pathlib import Path

import psutil
import psycopg
from psycopg import sql

# Row counts shown beside the figures (the big sample table is counted too: a few seconds).
COUNTED = ("companies", "users", "services", "invoices", "invoice_lines", "tickets",
           "maintenances", "sensors", "sensor_samples")  # fmt: skip


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def reference_ms(repeats: int = 5) -> float:
    """Milliseconds one core takes for a fixed pure-Python loop, the least of ``repeats``: the
    machines of one kind differ by up to twice in speed, and this says which one a run had."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        total = 0
        for number in range(1_000_000):
            total += number % 7
        best = min(best, time.perf_counter() - started)
    return best * 1000


def spread(samples: list[float]) -> dict[str, float] | None:
    """Least, median and greatest of references taken through a run: one moment's least hides
    a machine whose speed moves from one second to the next (a run read 33 ms at its end while
    single loops after it took 36 to 59 ms)."""
    if not samples:
        return None
    return {"low": round(min(samples), 1), "median": round(statistics.median(samples), 1),
            "high": round(max(samples), 1), "samples": len(samples)}  # fmt: skip


def describe(database_url: str) -> dict[str, object]:
    with psycopg.connect(database_url) as connection:
        version = connection.execute("SHOW server_version").fetchone()
        counts = {table: _count(connection, table) for table in COUNTED}
        size = connection.execute("SELECT pg_database_size(current_database())").fetchone()
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "reference_ms": round(reference_ms(), 1),
        "ram_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "postgresql": version[0] if version else "unknown",
        "python": platform.python_version(),
        "os": platform.platform(),
        "database_gib": round(size[0] / 2**30, 2) if size else None,
        "rows": counts,
    }


def _count(connection: psycopg.Connection, table: str) -> int:
    row = connection.execute(
        sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
    ).fetchone()
    return int(row[0]) if row else 0
