"""``python -m bench.run``: start the portal, measure every endpoint of ``endpoints.py`` with its
limits, weigh the front end, write ``bench/results/``."""

import argparse
import fcntl
import re
import sys
import tempfile
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis

from bench.generate.loader import plain_url
from bench.generate.run import NotPostgreSQL, sqlalchemy_url
from bench.run import report
from bench.run.bodies import Body, login_body, request_body, token_body
from bench.run.browsers import simulate, watch_monitoring
from bench.run.database import capture, database_limit, render
from bench.run.endpoints import (
    ALICE,
    DEEP_PAGES,
    ENDPOINTS,
    LIMITED_PAIRS,
    PLACEHOLDERS,
    Endpoint,
)
from bench.run.frontend import page_weights
from bench.run.lighthouse import measure_pages
from bench.run.machine import describe, reference_ms, spread
from bench.run.servers import (
    ROOT,
    SERVER,
    WORKERS,
    Server,
    copy_tree,
    portal,
    static_server,
)  # fmt: skip
from bench.run.wrk import ensure_wrk, measure, run_wrk
from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.sessions import COOKIE_NAME
from portal.settings import get_settings

# pgbench clients at most: PostgreSQL's 100 connections are shared with the portal's pools
# (5 workers × up to 15) and whatever else runs; two cores gain nothing beyond this anyway.
DATABASE_CLIENTS = 20


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _session_cookie(url: str, email: str) -> str:
    response = httpx.post(f"{url}/provider/login", content=login_body(email).content,
                          headers={"content-type": "application/json"}, timeout=60)  # fmt: skip
    response.raise_for_status()
    return f"{COOKIE_NAME}={response.cookies[COOKIE_NAME]}"


class Prepared:
    """An endpoint ready to measure: its URL path, headers, body file and recorded SQL."""

    def __init__(self, endpoint: Endpoint, path: str, body: Body | None) -> None:
        self.endpoint = endpoint
        self.path = path
        self.body = body
        self.body_file: Path | None = None
        self.headers: dict[str, str] = {}
        self.sql: list[str] = []
        self.round_trips = 0
        self.bytes = 0
        self.slug = _slug(endpoint.name)


def _prepare(
    endpoint: Endpoint, server: Server, cookies: dict[str, str], values: dict[str, str],
    folder: Path, database_url: str,
) -> Prepared:  # fmt: skip
    body = request_body(endpoint.body, endpoint.user, database_url)
    item = Prepared(endpoint, endpoint.path.format(**values), body)
    if endpoint.token:
        made = httpx.post(f"{server.url}/provider/api/personal_tokens",
                          content=token_body().content, timeout=60,
                          headers={"Cookie": cookies[endpoint.user],
                                   "Content-Type": token_body().content_type})  # fmt: skip
        made.raise_for_status()
        item.headers["Authorization"] = f"Bearer {made.json()['token']}"
    elif endpoint.body != "login":
        item.headers["Cookie"] = cookies[endpoint.user]
    if body:
        item.headers["Content-Type"] = body.content_type
        item.body_file = folder / f"{item.slug}.request"
        item.body_file.write_bytes(body.content)
    response = httpx.request(endpoint.method, server.url + item.path, headers=item.headers,
                             content=body.content if body else None, timeout=300)  # fmt: skip
    if endpoint.revalidate and response.status_code == 200:
        item.headers["If-None-Match"] = response.headers["etag"]
        response = httpx.request(endpoint.method, server.url + item.path, headers=item.headers,
                                 timeout=300)  # fmt: skip
        if response.status_code != 304:
            raise RuntimeError(f"{response.status_code} where 304 was due")
    elif response.status_code >= 300:
        raise RuntimeError(f"{response.status_code} {response.text[:200]}")
    item.bytes = len(response.content)
    (folder / f"{item.slug}.body").write_bytes(response.content)
    (folder / f"{item.slug}.type").write_text(response.headers.get("content-type", "text/plain"))
    engine = create_db_engine(sqlalchemy_url(database_url))
    try:
        captured = capture(engine, item.path, login_body(endpoint.user), endpoint.method, body,
                           endpoint.token, endpoint.revalidate)  # fmt: skip
        with psycopg.connect(database_url) as connection:
            item.sql = render(connection, captured.statements)
        item.round_trips = captured.round_trips
    finally:
        engine.dispose()
    return item


def _measure(item: Prepared, server: Server, static: Server, database_url: str,
             settings: dict[str, Any]) -> list[dict[str, Any]]:  # fmt: skip
    rows = []
    timing = (settings["warmup"], settings["seconds"], settings["runs"])
    for connections in item.endpoint.connections:
        _log(f"  {item.endpoint.name}: {connections} connections")
        portal_figures = measure(server.url + item.path, connections, item.headers,
                                 item.endpoint.method, item.body_file, *timing)  # fmt: skip
        http = measure(static.url + "/" + item.slug, connections, {}, item.endpoint.method,
                       item.body_file, *timing)  # fmt: skip
        try:
            clients = min(connections, DATABASE_CLIENTS)
            db = database_limit(database_url, item.sql, clients, *timing)
        except RuntimeError as error:
            _log(f"  {item.endpoint.name}: no database limit ({error})")
            db = None
        rows.append({
            "connections": connections,
            "portal": {k: v for k, v in vars(portal_figures).items() if k != "runs"},
            "portal_runs": [vars(run) | {"rps": run.rps} for run in portal_figures.runs],
            "http": {k: v for k, v in vars(http).items() if k != "runs"},
            "database": vars(db) | {"clients": clients} if db else None,
        })  # fmt: skip
    return rows


def _warm_up(prepared: list[Prepared], server: Server) -> None:
    """Every worker through every code path once before anything counts: the first requests of
    a fresh worker open its database pool and fill its caches."""
    _log("Warming up every endpoint…")
    for item in prepared:
        if item.endpoint.connections != (1,):
            run_wrk(server.url + item.path, 2 * WORKERS, 2, item.headers, item.endpoint.method,
                    item.body_file)  # fmt: skip


def _ratios(
    endpoints: list[dict[str, Any]], pairs: tuple[tuple[str, str], ...]
) -> list[dict[str, Any]]:
    """The p50 latency of each pair's first line over its second's, at each connection count:
    ``DEEP_PAGES`` and ``LIMITED_PAIRS``."""
    by_name = {e["name"]: e for e in endpoints if "measures" in e}
    ratios = []
    for deep, first in pairs:
        if deep in by_name and first in by_name:
            for a, b in zip(by_name[deep]["measures"], by_name[first]["measures"], strict=False):
                if not (a["portal"]["p50_ms"] and b["portal"]["p50_ms"]):
                    continue  # no request answered within a run: no ratio to give
                ratio = a["portal"]["p50_ms"] / b["portal"]["p50_ms"]
                ratios.append({"name": f"{deep} / {first}", "connections": a["connections"],
                               "ratio": ratio})  # fmt: skip
    return ratios


def placeholders(database_url: str) -> dict[str, str]:
    values = {}
    with psycopg.connect(database_url) as connection:
        for name, query in PLACEHOLDERS.items():
            row = connection.execute(query).fetchone()
            values[name] = str(row[0]) if row else ""
    return values


def _lighthouse(result: dict[str, Any], tree: Path, server: Server) -> None:
    _log("Lighthouse: login, home, services…")
    try:
        result["lighthouse"] = measure_pages(tree, server.url, ALICE)
        result["not_measured"].remove("Lighthouse scores")
    except Exception as error:  # the other figures stand without it
        _log(f"  Lighthouse failed: {error}")
        result["lighthouse_error"] = str(error)[:300]


def _browsers(result: dict[str, Any], server: Server, redis_url: str, count: int,
              think: float) -> None:  # fmt: skip
    """``count`` simulated browsers at once (``browsers.py``) on a fresh portal, after one that
    loads the code paths, then ``count`` more once those have left. Memory is read while each
    wave is still connected: the first wave's growth is what an arrival of ``count`` users costs
    workers that never met such a load (their high-water mark of events handled at once, and
    their first use of each code path); the second's is what each connected browser keeps."""
    _log(f"{count} simulated browsers: log in, open the services list, filter, page…")
    store = redis.Redis.from_url(redis_url)

    def reading() -> tuple[int, int]:
        memory: dict[str, Any] = store.info("memory")  # type: ignore[assignment]
        return server.rss_bytes(), int(memory["used_memory"])

    try:
        simulate(server.url, ALICE, DEMO_PASSWORD, 1, 0, reading)
        before = reading()
        timings, arrived = simulate(server.url, ALICE, DEMO_PASSWORD, count, think, reading)
        _log(f"{count} more simulated browsers, the same way, once those have left…")
        left = reading()
        again, kept = simulate(server.url, ALICE, DEMO_PASSWORD, count, think, reading)
    finally:
        store.close()
    failures = timings.failures + again.failures
    result["browsers"] = {
        "count": count, "think_s": think, "interactions": timings.summary(),
        "failures": failures,
        "backend_kib_per_client": (kept[0] - left[0]) / count / 1024,
        "backend_kib_per_client_first_wave": (arrived[0] - before[0]) / count / 1024,
        "redis_kib_per_client": (kept[1] - left[1]) / count / 1024,
    }  # fmt: skip
    if not failures:
        result["not_measured"].remove("50 simulated browsers over the websocket")


def _monitoring(
    result: dict[str, Any], server: Server, viewers: list[str], rounds: int, think: float
) -> None:
    """The monitoring screen, one tab at a time and no other load: the customer nearest
    1 000 sensors (issue 15: event to update under 200 ms), then alice (2 000 in the list)."""
    rows = []
    for email in viewers:
        _log(f"One tab on the monitoring screen as {email}: open it, refresh {rounds} times…")
        timings = watch_monitoring(server.url, email, DEMO_PASSWORD, rounds, think / 4)
        rows += [{**row, "user": email} for row in timings.summary() if "monitoring" in row["name"]]
    result["monitoring"] = {"rounds": rounds, "interactions": rows}


# What the benchmark's own writes touch (imports, logins, sessions): vacuumed before measuring,
# so that an earlier run's dead rows never slow this one's reads.
# Tickets too: "open a ticket" writes them, and a migration that rewrites their rows (0028's
# backfill) leaves no page all-visible until a VACUUM, which turns index-only counts into heap
# reads for every reader.
_WRITTEN_TABLES = "services, tickets, provider_sessions, audit_log, rate_limit_counters"


def _vacuum(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(f"VACUUM (ANALYZE) {_WRITTEN_TABLES}")


def run(arguments: argparse.Namespace) -> Path:
    database_url = plain_url(get_settings().database_url)
    sqlalchemy_url(database_url)
    ensure_wrk()
    settings = {"warmup": arguments.warmup, "seconds": arguments.seconds, "runs": arguments.runs}
    result: dict[str, Any] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "workers": WORKERS, "server": SERVER, "settings": settings, "endpoints": [],
        "not_measured": ["Lighthouse scores", "50 simulated browsers over the websocket"],
    }  # fmt: skip
    chosen = [e for e in ENDPOINTS if not arguments.only or e.name in arguments.only]
    tree = copy_tree(Path(arguments.tree)) if arguments.tree else ROOT
    with ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-run-")))
        if arguments.lock:
            lock = stack.enter_context(Path(arguments.lock).open("a"))
            _log(f"Waiting for {arguments.lock}…")
            fcntl.flock(lock, fcntl.LOCK_EX)
        _log("VACUUM ANALYZE of the tables the benchmark writes…")
        _vacuum(database_url)
        _log(f"Starting the portal from {tree} (builds the front end when needed)…")
        with portal(tree, database_url, arguments.redis_url, work / "portal.log") as server:
            idle = server.rss_bytes()
            cookies = {
                email: _session_cookie(server.url, email) for email in {e.user for e in chosen}
            }
            values = placeholders(database_url)
            prepared = []
            for endpoint in chosen:
                try:
                    prepared.append(_prepare(endpoint, server, cookies, values, work, database_url))
                except Exception as error:  # reported in the table, the others still run
                    _log(f"  {endpoint.name}: not measured ({error})")
                    result["endpoints"].append({"name": endpoint.name, "error": str(error)[:120]})
            static = stack.enter_context(static_server(work, work / "static.log"))
            _warm_up(prepared, server)
            references: list[float] = []
            for item in prepared:
                references.append(reference_ms(repeats=1))
                result["endpoints"].append({
                    "name": item.endpoint.name, "method": item.endpoint.method, "path": item.path,
                    "user": item.endpoint.user, "bytes": item.bytes, "statements": len(item.sql),
                    "round_trips": item.round_trips,
                    "rows": item.body.rows if item.body else None,
                    "measures": _measure(item, server, static, database_url, settings),
                })  # fmt: skip
            result["memory"] = {"idle_mib": idle / 2**20, "after_mib": server.rss_bytes() / 2**20}
        # The portal's own phases start from a fresh instance: the endpoint runs leave requests
        # that wrk gave up on still running (a feed at 50 connections) and workers' heaps grown
        # by multi-megabyte answers, which counted as the browsers' latency and memory (a run
        # gave -1 785 KiB per browser).
        _log("Starting a fresh portal for the browsers, the monitoring screen and Lighthouse…")
        server = stack.enter_context(
            portal(tree, database_url, arguments.redis_url, work / "portal-browsers.log")
        )
        if arguments.browsers:
            _browsers(result, server, arguments.redis_url, arguments.browsers, arguments.think)
        if arguments.monitoring_rounds:
            viewers = [values["monitoring_user"], ALICE]
            _monitoring(result, server, viewers, arguments.monitoring_rounds, arguments.think)
        if not arguments.no_lighthouse:
            _lighthouse(result, tree, server)

    result["deep_pages"] = _ratios(result["endpoints"], DEEP_PAGES)
    result["limited_pairs"] = _ratios(result["endpoints"], LIMITED_PAIRS)
    build = tree / ".web" / "build"
    result["frontend"] = page_weights(build) if build.exists() else []
    result["machine"] = describe(database_url)
    result["machine"]["reference_during_ms"] = spread(references)
    result["scale"] = round(result["machine"]["rows"]["services"] / 200_000, 4)
    return report.write(result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__)
    parser.add_argument("--tree", help="copy the repository there and run the portal from it")
    parser.add_argument("--lock", help="a file to hold an exclusive lock on while measuring")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", action="append", help="an endpoint's name (repeatable)")
    parser.add_argument("--no-lighthouse", action="store_true")
    parser.add_argument("--browsers", type=int, default=50,
                        help="simulated browsers over the websocket (0: none)")  # fmt: skip
    parser.add_argument("--monitoring-rounds", type=int, default=10,
                        help="refreshes of one tab on the monitoring screen (0: none)")  # fmt: skip
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean pause of a simulated user between interactions (s)")  # fmt: skip
    arguments = parser.parse_args(argv)
    try:
        path = run(arguments)
    except NotPostgreSQL as error:
        print(f"Refused: {error}", file=sys.stderr)
        return 2
    print(f"Results: {path} and {report.RESULTS / 'latest.md'}")
    return 0
