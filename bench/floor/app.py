"""The floor server: each endpoint's recorded SQL run on an asyncio psycopg connection (BEGIN,
the statements, ROLLBACK, as pgbench replays them), then a body of the endpoint's size. Nothing
else: no framework beyond Starlette's routing, no ORM, no validation, no middleware.

``FLOOR_DIR/endpoints.json`` maps a slug to its ``sql`` and ``bytes``; ``FLOOR_DB`` is the
database; each worker opens ``FLOOR_POOL`` connections on its first request."""

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import psycopg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

_ENDPOINTS: dict[str, dict[str, Any]] = json.loads(
    (Path(os.environ.get("FLOOR_DIR", ".")) / "endpoints.json").read_text()
)
_BODIES = {slug: b"x" * item["bytes"] for slug, item in _ENDPOINTS.items()}
_connections: asyncio.Queue[psycopg.AsyncConnection[Any]] | None = None


async def _pool() -> asyncio.Queue[psycopg.AsyncConnection[Any]]:
    global _connections
    if _connections is None:
        queue: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
        for _ in range(int(os.environ.get("FLOOR_POOL", "10"))):
            queue.put_nowait(await psycopg.AsyncConnection.connect(os.environ["FLOOR_DB"]))
        _connections = queue
    return _connections


async def endpoint(request: Request) -> Response:
    slug = request.path_params["slug"]
    pool = await _pool()
    connection = await pool.get()
    try:
        async with connection.transaction(force_rollback=True):
            for sql in _ENDPOINTS[slug]["sql"]:
                cursor = await connection.execute(sql)
                if cursor.description:
                    await cursor.fetchall()
    finally:
        pool.put_nowait(connection)
    return Response(_BODIES[slug], media_type="application/octet-stream")


async def ready(_request: Request) -> Response:
    return PlainTextResponse("ready")


app = Starlette(routes=[Route("/_ready", ready), Route("/{slug}", endpoint)])
