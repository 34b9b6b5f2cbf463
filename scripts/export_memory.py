"""Whether the services export streams in constant memory, on a generated data set:
``python scripts/export_memory.py DATABASE_URL`` (after ``make bench-data``).

Streams the export of every service through the provider application in this process, as the
administrator, and prints its size, its time and the peak of Python's allocations meanwhile. The
benchmark (bench/) times the export of 50 000 services over HTTP; this shows that the memory does
not grow with the number of rows.
"""

import argparse
import asyncio
import time
import tracemalloc
from collections.abc import MutableMapping
from typing import Any

import httpx

from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.main import create_app
from portal.provider.platform.db import create_db_engine
from portal.settings import Settings

ADMIN = "admin@patchbay.test"


async def export(database_url: str) -> None:
    engine = create_db_engine(Settings(database_url=database_url).sqlalchemy_url)
    app = create_app(engine)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app), base_url="http://bench"
    ) as client:
        response = await client.post("/login", json={"username": ADMIN, "password": DEMO_PASSWORD})
        response.raise_for_status()
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    # The application called directly, not through httpx's ASGI transport, which would gather
    # the whole body before handing it over: each chunk is counted as it leaves, then dropped.
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": "/api/services/export", "raw_path": b"/api/services/export",
        "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1), "server": ("bench", 80),
        "headers": [(b"host", b"bench"), (b"cookie", cookie.encode())],
    }  # fmt: skip
    sent = {"status": 0, "bytes": 0, "rows": 0}
    requested, finished = asyncio.Event(), asyncio.Event()

    async def receive() -> MutableMapping[str, Any]:
        if not requested.is_set():
            requested.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await finished.wait()  # the client stays connected until the whole body is sent
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            sent["status"] = int(message["status"])
        elif message["type"] == "http.response.body":
            body = message.get("body", b"")
            sent["bytes"] += len(body)
            sent["rows"] += body.count(b"\n")
            if not message.get("more_body"):
                finished.set()

    tracemalloc.start()
    started = time.perf_counter()
    await app(scope, receive, send)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    if sent["status"] != 200:
        raise SystemExit(f"the export answered {sent['status']}")
    print(f"export of every service: {sent['rows'] - 1:,} rows, {sent['bytes'] / 1e6:.1f} MB "
          f"in {elapsed:.1f} s, allocation peak {peak / 1e6:.1f} MB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("database_url")
    asyncio.run(export(parser.parse_args().database_url))


if __name__ == "__main__":
    main()
