"""The principal read on the event loop (``loop_reads``, PostgreSQL): no thread for the read,
every revocation seen by the very next request of any worker, and an exhausted pool that makes
its requests wait without holding the loop. On SQLite the read stays in the thread pool, where
the revocations hold all the same."""

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session

from portal.provider.main import ProviderMount, create_app
from portal.provider.platform.loop_reads import LoopReads
from portal.provider.platform.models import ProviderSession, User, utcnow
from portal.provider.platform.sessions import (
    COOKIE_NAME,
    LIVE_SESSION,
    end_user_sessions,
    token_hash,
)
from tests.provider.conftest import BASE_URL, PASSWORD, World

ROUTE = "/api/service_types"


def _worker(provider: FastAPI) -> FastAPI:
    """The provider as one worker of the server has it: an app of its own on the same
    database, with its own connections for the principal."""
    parent = FastAPI()
    parent.router.routes.append(ProviderMount("/provider", provider))
    return parent


@pytest.fixture
async def workers(engine: sa.Engine) -> AsyncIterator[tuple[httpx.AsyncClient, ...]]:
    """Two workers' clients; what one signs in, the other is handed by its cookie."""
    apps = [_worker(create_app(engine)), _worker(create_app(engine))]
    async with (
        httpx.AsyncClient(transport=httpx.ASGITransport(apps[0]), base_url=BASE_URL) as first,
        httpx.AsyncClient(transport=httpx.ASGITransport(apps[1]), base_url=BASE_URL) as second,
    ):
        yield first, second


@pytest.fixture
def session_reads(engine: sa.Engine) -> Iterator[list[bool]]:
    """For each read of a session, whether it ran on the event loop's thread."""
    loop_thread = threading.get_ident()
    read = LIVE_SESSION.compiled(engine.dialect).sql
    reads: list[bool] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement == read:
            reads.append(threading.get_ident() == loop_thread)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield reads
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


async def _signed_in(client: httpx.AsyncClient, world: World, key: str) -> str:
    response = await client.post(
        "/login", json={"username": world.email(key), "password": PASSWORD}
    )
    assert response.status_code == 204, response.text
    client.cookies.clear()
    return response.cookies[COOKIE_NAME]


def _cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"{COOKIE_NAME}={token}"}


async def _status(client: httpx.AsyncClient, token: str) -> int:
    return (await client.get(ROUTE, headers=_cookie(token))).status_code


def _needs_postgresql(engine: sa.Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite's read stays in the thread pool (set DATABASE_URL=postgresql://…)")


async def test_the_session_is_read_on_the_event_loop(
    engine: sa.Engine,
    workers: tuple[httpx.AsyncClient, ...],
    world: World,
    session_reads: list[bool],
) -> None:
    _needs_postgresql(engine)
    first, _ = workers
    token = await _signed_in(first, world, "alice")
    session_reads.clear()
    assert await _status(first, token) == 200
    # Seen by the engine's watchers, and read without a hop to the thread pool.
    assert session_reads == [True]


async def test_a_revocation_holds_at_the_next_request_of_another_worker(
    engine: sa.Engine,
    workers: tuple[httpx.AsyncClient, ...],
    world: World,
    session_reads: list[bool],
) -> None:
    first, second = workers
    # Signing out on one worker.
    token = await _signed_in(first, world, "alice")
    assert await _status(second, token) == 200
    assert (await first.post("/logout", headers=_cookie(token))).status_code == 204
    assert await _status(second, token) == 401
    # Every session of the user ended (a password changed or reset).
    token = await _signed_in(first, world, "alice")
    assert await _status(second, token) == 200
    with Session(world.engine) as db:
        end_user_sessions(db, world.users["alice"])
        db.commit()
    assert await _status(second, token) == 401
    # The session idle beyond its limit.
    token = await _signed_in(first, world, "alice")
    assert await _status(second, token) == 200
    with Session(world.engine) as db:
        stored = db.get_one(ProviderSession, token_hash(token))
        stored.last_seen_at = utcnow() - timedelta(days=1)
        db.add(stored)
        db.commit()
    assert await _status(second, token) == 401
    # The user made inactive.
    token = await _signed_in(first, world, "bob")
    assert await _status(second, token) == 200
    _set_active(world, "bob", False)
    try:
        assert await _status(second, token) == 401
    finally:
        _set_active(world, "bob", True)
    on_loop = engine.dialect.name == "postgresql"
    assert session_reads
    assert all(read == on_loop for read in session_reads)


async def test_an_impersonation_ended_on_one_worker_is_over_on_the_other(
    workers: tuple[httpx.AsyncClient, ...], world: World
) -> None:
    first, second = workers
    staff = await _signed_in(first, world, "admin")
    started = await first.post(
        "/api/impersonation", json={"email": world.email("alice")}, headers=_cookie(staff)
    )
    assert started.status_code == 200, started.text
    acting = started.cookies[COOKIE_NAME]
    first.cookies.clear()
    me = await second.get(f"/api/users/{world.users['alice']}", headers=_cookie(acting))
    assert me.status_code == 200, me.text
    ended = await first.post("/api/impersonation/exit", headers=_cookie(acting))
    assert ended.status_code == 200, ended.text
    first.cookies.clear()
    assert await _status(second, acting) == 401
    assert await _status(second, ended.cookies[COOKIE_NAME]) == 200


def _set_active(world: World, key: str, active: bool) -> None:
    with Session(world.engine) as db:
        user = db.get_one(User, world.users[key])
        user.is_active = active
        db.add(user)
        db.commit()


async def test_an_exhausted_pool_makes_its_requests_wait_not_the_loop(
    engine: sa.Engine, world: World
) -> None:
    _needs_postgresql(engine)
    provider = create_app(engine)
    reads = provider.state.loop_reads = LoopReads(engine, 1)
    app = _worker(provider)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as client:
        token = await _signed_in(client, world, "alice")
        # Whatever waits for the one connection is answered once it is back.
        async with reads.connection():
            waiting = asyncio.create_task(_status(client, token))
            for _ in range(20):
                await asyncio.sleep(0)
            assert not waiting.done()
            # The loop serves meanwhile: a request without a session needs no connection.
            assert (await client.get(ROUTE)).status_code == 401
            assert not waiting.done()
        assert await waiting == 200
        # After the pool's timeout, the 503 of an exhausted pool: try again.
        reads.timeout = 0
        async with reads.connection():
            response = await client.get(ROUTE, headers=_cookie(token))
        assert response.status_code == 503, response.text
        assert response.headers["Retry-After"] == "5"
        assert await _status(client, token) == 200
