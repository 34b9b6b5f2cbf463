"""The database's own limit: the statements an endpoint sends, recorded during one in-process
request, replayed by pgbench (C, no Python in the way) inside a rolled-back transaction."""

import asyncio
import re
import statistics
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import sqlalchemy as sa

from bench.run.bodies import Body, token_body
from portal.provider.main import create_app
from portal.provider.platform.after_commit import THREAD_PREFIX

_TPS = re.compile(r"^tps = ([0-9.]+)", re.MULTILINE)
# The first value of an INSERT is the row's key; the recorded one exists (the recorded request
# committed it), so each replayed transaction draws a fresh key of the same shape.
_INSERT = r"(^INSERT INTO .*?VALUES \()"
_INSERTED_KEYS = (
    (re.compile(_INSERT + r"'[0-9a-f]{32}'::uuid::UUID", re.S), r"\1gen_random_uuid()"),
    (
        re.compile(_INSERT + r"'[0-9a-f]{64}'::VARCHAR", re.S),
        r"\1md5(random()::text) || md5(random()::text)",
    ),
)


@dataclass
class Captured:
    """What one request asked of the database."""

    # Each statement with each of its parameter sets, as pgbench replays them.
    statements: list[tuple[str, Any]]
    # Executions: an executemany of a thousand rows is one.
    round_trips: int
    # The size of the answer's body.
    response_bytes: int = 0


def capture(
    engine: sa.Engine,
    path: str,
    login: Body,
    method: str = "GET",
    body: Body | None = None,
    token: bool = False,
    revalidate: bool = False,
) -> Captured:
    """Every query one request runs, after logging in with ``login`` (the login endpoint
    itself is recorded without a session); with ``token``, the request is sent with a personal
    API token made with that session, and without the session; with ``revalidate``, the
    request names the ETag of a first, unrecorded one, and must answer 304."""
    captured = Captured([], 0)
    recording = False

    def record(_c: Any, _cursor: Any, statement: str, parameters: Any, _x: Any, many: bool) -> None:
        if recording and not threading.current_thread().name.startswith(THREAD_PREFIX):
            captured.round_trips += 1
            for each in parameters if many else [parameters]:
                captured.statements.append((statement, each))

    async def requests() -> None:
        nonlocal recording
        transport = httpx.ASGITransport(create_app(engine))
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            local = path.removeprefix("/provider")
            if local != "/login":
                response = await client.post("/login", content=login.content, headers=_type(login))
                response.raise_for_status()
            headers = _type(body)
            if token:
                made = await client.post("/api/personal_tokens", content=token_body().content,
                                         headers=_type(token_body()))  # fmt: skip
                made.raise_for_status()
                client.cookies.clear()
                headers["Authorization"] = f"Bearer {made.json()['token']}"
            content = body.content if body else None
            if revalidate:
                first = await client.request(method, local, content=content, headers=headers)
                first.raise_for_status()
                headers["If-None-Match"] = first.headers["etag"]
            recording = True
            response = await client.request(method, local, content=content, headers=headers)
            recording = False
            if revalidate and response.status_code != 304:
                raise RuntimeError(f"{path}: {response.status_code} where 304 was due")
            if not revalidate:
                response.raise_for_status()
            captured.response_bytes = len(response.content)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        asyncio.run(requests())
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return captured


def _type(body: Body | None) -> dict[str, str]:
    return {"content-type": body.content_type} if body else {}


def render(connection: psycopg.Connection, statements: list[tuple[str, Any]]) -> list[str]:
    """Each statement with its parameters inlined, as psycopg would send them."""
    cursor = psycopg.ClientCursor(connection)
    rendered = []
    for statement, parameters in statements:
        text = cursor.mogrify(statement, parameters).strip()
        for pattern, replacement in _INSERTED_KEYS:
            text = pattern.sub(replacement, text, count=1)
        rendered.append(text)
    return rendered


@dataclass
class DatabaseRun:
    tps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float


def pgbench(database_url: str, sql: list[str], clients: int, seconds: float) -> DatabaseRun:
    info = psycopg.conninfo.conninfo_to_dict(database_url)
    with tempfile.TemporaryDirectory(prefix="bench-pgbench-") as folder:
        script = Path(folder) / "endpoint.sql"
        script.write_text("BEGIN;\n" + "".join(f"{s.strip()};\n" for s in sql) + "ROLLBACK;\n")
        command = [
            "pgbench",
            "--no-vacuum",
            f"--file={script}",
            f"--client={clients}",
            f"--jobs={min(2, clients)}",
            f"--time={max(1, round(seconds))}",
            "--log",
            f"--log-prefix={Path(folder) / 'log'}",
            f"--host={info.get('host', '127.0.0.1')}",
            f"--port={info.get('port', '5432')}",
            f"--username={info.get('user', 'postgres')}",
            str(info.get("dbname", "postgres")),
        ]
        env = {"PGPASSWORD": str(info.get("password", "")), "PATH": "/usr/bin:/bin"}
        output = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if output.returncode:
            raise RuntimeError(f"pgbench failed: {output.stderr.strip()[-300:]}")
        latencies = sorted(
            int(line.split()[2]) / 1000
            for log in Path(folder).glob("log*")
            for line in log.read_text().splitlines()
            if line.strip()
        )
    match = _TPS.search(output.stdout)
    return DatabaseRun(
        tps=float(match.group(1)) if match else 0.0,
        p50_ms=_percentile(latencies, 50),
        p95_ms=_percentile(latencies, 95),
        p99_ms=_percentile(latencies, 99),
    )


def _percentile(values: list[float], percent: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, round(percent / 100 * (len(values) - 1)))]


def database_limit(
    database_url: str, sql: list[str], clients: int, warmup: float, seconds: float, runs: int
) -> DatabaseRun:
    if warmup > 0:
        pgbench(database_url, sql, clients, warmup)
    done = [pgbench(database_url, sql, clients, seconds) for _ in range(runs)]
    return DatabaseRun(
        tps=statistics.median(run.tps for run in done),
        p50_ms=statistics.median(run.p50_ms for run in done),
        p95_ms=statistics.median(run.p95_ms for run in done),
        p99_ms=statistics.median(run.p99_ms for run in done),
    )
