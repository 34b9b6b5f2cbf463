"""Measures a floor server (``app.py``) against pgbench for the endpoints named on the command
line (the benchmark's cheapest reads by default) at 1 and 10 connections, as ``bench.run``
measures the portal: ``python -m bench.floor [--stack NAME] [--only NAME …]`` with
``DATABASE_URL`` on the bench data. Needs wrk and pgbench; prints a Markdown table.

``--layers`` measures instead what each layer of the portal's own stack costs a request
(``layers.py``; ``--only`` then names a layer's path)."""

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import httpx
import psycopg

from bench.floor import layers
from bench.generate.loader import plain_url
from bench.generate.run import sqlalchemy_url
from bench.run.bodies import login_body
from bench.run.database import capture, database_limit, render
from bench.run.endpoints import ENDPOINTS
from bench.run.main import placeholders
from bench.run.servers import granian_server
from bench.run.wrk import measure
from portal.provider.platform.db import create_db_engine
from portal.settings import get_settings

CHEAPEST = ["a service", "a ticket", "an invoice", "a user", "service types"]
CONNECTIONS = (1, 10)
# ``--stack``: the application in ``app.py`` that serves the SQL.
STACKS = {"starlette": "app", "fastapi-async": "fastapi_async", "fastapi-sync": "fastapi_sync"}


def _record(database_url: str, names: list[str]) -> dict[str, dict[str, Any]]:
    """Each endpoint's SQL, recorded from the provider itself, and the size of its answer."""
    values = placeholders(database_url)
    engine = create_db_engine(sqlalchemy_url(database_url))
    recorded = {}
    try:
        for endpoint in ENDPOINTS:
            if endpoint.name not in names or endpoint.method != "GET":
                continue
            captured = capture(engine, endpoint.path.format(**values), login_body(endpoint.user))
            with psycopg.connect(database_url) as connection:
                sql = render(connection, captured.statements)
            slug = endpoint.name.replace(" ", "-")
            recorded[slug] = {"name": endpoint.name, "sql": sql, "bytes": captured.response_bytes}
    finally:
        engine.dispose()
    return recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", action="append", help="an endpoint's name (repeatable)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stack", choices=STACKS, default="starlette")
    parser.add_argument("--layers", action="store_true", help="the CPU each layer adds")
    parser.add_argument("--connections", type=int, default=10, help="with --layers")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1", help="with --layers")
    parser.add_argument(
        "--in-process", type=int, metavar="N", help="with --layers: N calls in this process"
    )
    arguments = parser.parse_args()
    if arguments.layers and arguments.in_process:
        layers.measure_in_process(arguments.in_process)
        return
    if arguments.layers:
        layers.measure_all(arguments)
        return
    timing = (arguments.warmup, arguments.seconds, arguments.runs)
    database_url = plain_url(get_settings().database_url)
    recorded = _record(database_url, arguments.only or CHEAPEST)
    print("| Endpoint | conns | floor req/s | floor p50 ms | DB tx/s | DB p50 ms | of DB |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as folder:
        (Path(folder) / "endpoints.json").write_text(json.dumps(recorded))
        settings = {"FLOOR_DIR": folder, "FLOOR_DB": database_url}
        with granian_server(
            f"bench.floor.app:{STACKS[arguments.stack]}", settings, Path(folder) / "floor.log"
        ) as server:
            for slug, item in recorded.items():
                httpx.get(f"{server.url}/{slug}", timeout=30).raise_for_status()
                for connections in CONNECTIONS:
                    floor = measure(f"{server.url}/{slug}", connections, {}, "GET", None, *timing)
                    db = database_limit(database_url, item["sql"], connections, *timing)
                    print(f"| {item['name']} | {connections} | {floor.rps:.0f} | "
                          f"{floor.p50_ms:.1f} | {db.tps:.0f} | {db.p50_ms:.1f} | "
                          f"{floor.rps / db.tps:.0%} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
