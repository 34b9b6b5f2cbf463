"""The principal's read on the event loop, on PostgreSQL (docs/decisions/provider-floor.md).

Every request with a session cookie reads its session. Read on the engine's blocking
connections, that read had to wait in the thread pool, and the hop there and back cost more than
the read. Here it runs on a few asynchronous connections of the worker's own, beside the
engine's pool: opened when first needed and kept, at most ``DATABASE_LOOP_POOL_SIZE`` at once.
A request beyond them waits for one without holding the event loop, and after the engine pool's
timeout gets the same 503 as an exhausted engine pool. Each read sees what was committed before
it, from any worker: nothing of a session is kept between requests. SQLite has no asynchronous
driver here; its read stays in the thread pool.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from portal.provider.platform.db import POOL_TIMEOUT, CursorRead, closed_by_server

AsyncConnection = psycopg.AsyncConnection[tuple[Any, ...]]


class LoopReads:
    """Asynchronous connections to ``engine``'s PostgreSQL database, autocommit like the
    engine's reads, for the statements a request runs before its route (``rows``)."""

    def __init__(self, engine: Engine, size: int, timeout: float = POOL_TIMEOUT) -> None:
        self.engine = engine
        self.size = size
        self.timeout = timeout
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: list[AsyncConnection] = []
        self._slots = asyncio.Semaphore(size)

    async def rows(self, read: CursorRead, parameters: dict[str, Any]) -> list[tuple[Any, ...]]:
        """``read``'s rows for ``parameters``, as ``CursorRead.rows`` gives them."""
        compiled = read.compiled(self.engine.dialect)
        values = compiled.parameters(parameters)
        async with self.connection() as connection:
            # Whatever watches the engine's statements (the tests' counts, the benchmark's
            # capture of the provider's SQL) sees this one too; it has no SQLAlchemy connection.
            self.engine.dispatch.before_cursor_execute(
                None, None, compiled.sql, values, None, False
            )
            cursor = await connection.execute(compiled.sql, values, prepare=read.prepare)
            return [compiled.values(row) for row in await cursor.fetchall()]

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        """A connection of the pool for the time of the block; a failure discards it, and a
        connection failure reads as the engine's (``OperationalError``: a 503)."""
        slots = await self._slots_of_this_loop()
        if slots.locked():
            try:
                async with asyncio.timeout(self.timeout):
                    await slots.acquire()
            except TimeoutError:
                raise PoolTimeout(
                    f"every connection of the principal's pool stayed busy {self.timeout:g} s"
                ) from None
        else:
            await slots.acquire()
        connection: AsyncConnection | None = None
        try:
            connection = await self._checkout()
            yield connection
        except BaseException as error:
            # A failed or cancelled statement may leave the connection mid-answer.
            if connection is not None:
                await connection.close()
                connection = None
            if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
                raise OperationalError(None, None, error) from error
            raise
        finally:
            if connection is not None and not connection.closed and slots is self._slots:
                self._idle.append(connection)
            slots.release()

    async def _checkout(self) -> AsyncConnection:
        while self._idle:
            connection = self._idle.pop()
            if not closed_by_server(connection):
                return connection
            await connection.close()
        return await AsyncConnection.connect(self._conninfo, autocommit=True, options="-c jit=off")

    async def _slots_of_this_loop(self) -> asyncio.Semaphore:
        """The slots of the running loop. A worker has one loop; the tests run each on a loop
        of its own, where the last loop's idle connections (whose waits belong to it) are
        closed and the slots start afresh."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            stale, self._idle = self._idle, []
            self._loop, self._slots = loop, asyncio.Semaphore(self.size)
            for connection in stale:
                await connection.close()
        return self._slots
