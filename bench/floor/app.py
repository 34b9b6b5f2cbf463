"""The floor servers: each endpoint's recorded SQL run on a psycopg connection (BEGIN, the
statements, ROLLBACK, as pgbench replays them), then a body of the endpoint's size. Nothing else:
no ORM, no validation, no middleware.

Three stacks answer the same way, so that what the framework costs can be told from what the
rest of the provider costs: ``app``, Starlette's routing on asyncio psycopg (what any Python
server here could reach); ``fastapi_async``, FastAPI's routing and parameter reading on the same
connections; ``fastapi_sync``, a synchronous FastAPI route on blocking psycopg in FastAPI's
thread pool, the provider's own shape (docs/decisions/provider-floor.md).

``FLOOR_DIR/endpoints.json`` maps a slug to its ``sql`` and ``bytes``; ``FLOOR_DB`` is the
database; each worker opens ``FLOOR_POOL`` connections on its first request."""

import asyncio
import json
import os
import queue
import threading
from pathlib import Path
from typing import Any

import psycopg
from fastapi import FastAPI
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

_ENDPOINTS: dict[str, dict[str, Any]] = json.loads(
    (Path(os.environ.get("FLOOR_DIR", ".")) / "endpoints.json").read_text()
)
_BODIES = {slug: b"x" * item["bytes"] for slug, item in _ENDPOINTS.items()}
_POOL_SIZE = int(os.environ.get("FLOOR_POOL", "10"))
_connections: asyncio.Queue[psycopg.AsyncConnection[Any]] | None = None
_blocking: queue.Queue[psycopg.Connection[Any]] | None = None
_blocking_lock = threading.Lock()


async def _pool() -> asyncio.Queue[psycopg.AsyncConnection[Any]]:
    global _connections
    if _connections is None:
        connections: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
        for _ in range(_POOL_SIZE):
            connections.put_nowait(await psycopg.AsyncConnection.connect(os.environ["FLOOR_DB"]))
        _connections = connections
    return _connections


def _blocking_pool() -> queue.Queue[psycopg.Connection[Any]]:
    global _blocking
    with _blocking_lock:
        if _blocking is None:
            connections: queue.Queue[psycopg.Connection[Any]] = queue.Queue()
            for _ in range(_POOL_SIZE):
                connections.put_nowait(psycopg.Connection.connect(os.environ["FLOOR_DB"]))
            _blocking = connections
    return _blocking


async def _answer(slug: str) -> Response:
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


def _answer_blocking(slug: str) -> Response:
    pool = _blocking_pool()
    connection = pool.get()
    try:
        with connection.transaction(force_rollback=True):
            for sql in _ENDPOINTS[slug]["sql"]:
                cursor = connection.execute(sql)
                if cursor.description:
                    cursor.fetchall()
    finally:
        pool.put_nowait(connection)
    return Response(_BODIES[slug], media_type="application/octet-stream")


async def endpoint(request: Request) -> Response:
    return await _answer(request.path_params["slug"])


async def ready(_request: Request) -> Response:
    return PlainTextResponse("ready")


app = Starlette(routes=[Route("/_ready", ready), Route("/{slug}", endpoint)])

fastapi_async = FastAPI(openapi_url=None)
fastapi_async.add_route("/_ready", ready)


@fastapi_async.get("/{slug}")
async def fastapi_async_endpoint(slug: str) -> Response:
    return await _answer(slug)


fastapi_sync = FastAPI(openapi_url=None)
fastapi_sync.add_route("/_ready", ready)


@fastapi_sync.get("/{slug}")
def fastapi_sync_endpoint(slug: str) -> Response:
    return _answer_blocking(slug)
