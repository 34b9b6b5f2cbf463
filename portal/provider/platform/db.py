"""The provider's database: one engine per URL, a session per request.

SQLite (a file under ``data/``) by default, PostgreSQL through ``DATABASE_URL=postgresql://…``
with psycopg 3. Routes take ``SessionDep``; the engine comes from the application's state, so
tests and the CLI can point an app at any database. A request that changes nothing reads
outside a transaction, and the statements marked ``planned_once`` are planned once per
connection (docs/decisions/planned-once.md); the principal's, which every request runs, is read
on the connection's cursor (``CursorRead``), on PostgreSQL on the event loop (``loop_reads``).
A pooled connection the server has closed is replaced at checkout without a round trip
(docs/decisions/pool-checkout.md).
"""

import select
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

import psycopg
from fastapi import Depends, Request
from sqlalchemy import Engine, Select, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.engine.interfaces import DBAPICursor, ExecutionContext
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import QueryableAttribute, joinedload, selectinload
from sqlalchemy.orm.interfaces import LoaderOption
from sqlalchemy.sql.base import Executable
from sqlmodel import Session, create_engine

from portal.private_files import PRIVATE_DIRECTORY, private_file
from portal.settings import get_settings

E = TypeVar("E", bound=Executable)
# Methods that change nothing: their requests read outside a transaction (``read_engine``).
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PLANNED_ONCE = "planned_once"
# Seconds a request waits for a pooled connection before its 503 (SQLAlchemy's default, also
# the principal's connections', ``loop_reads``).
POOL_TIMEOUT = 30.0


def create_db_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (the settings' database by default)."""
    settings = get_settings()
    url = url or settings.sqlalchemy_url
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # JIT compilation pays for analytics, not for the provider's short indexed queries: a
        # calendar month's count (a costly-looking sub-plan) spent 5 ms of its 30 compiling.
        # A fixed pool: connections opened beyond it for a burst were closed again after it,
        # so each burst paid new server processes and prepared its statements anew
        # (docs/decisions/connection-pool.md).
        engine = create_engine(
            url,
            connect_args={"options": "-c jit=off"},
            pool_size=settings.database_pool_size,
            max_overflow=0,
            pool_timeout=POOL_TIMEOUT,
        )
        event.listen(engine, "do_execute", _execute)
        event.listen(engine.pool, "checkout", _closed_by_server)
        return engine
    if parsed.database and parsed.database != ":memory:":
        _private_sqlite_files(Path(parsed.database))
    engine = create_engine(url, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _configure_sqlite)
    return engine


def _private_sqlite_files(database: Path) -> None:
    """The database created 0600 before SQLite opens it, in a new directory 0700; one left open
    to other users by an earlier version is closed, with its companions (issue 47, item 18: it
    was 0644, the second factors' secrets in it)."""
    database.parent.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    private_file(database)
    for suffix in ("-wal", "-shm"):
        companion = database.with_name(database.name + suffix)
        if companion.exists():
            private_file(companion)


def _configure_sqlite(connection: Any, _record: Any) -> None:
    # SQLite ignores foreign keys (and so ON DELETE CASCADE) unless asked on every connection;
    # WAL lets readers proceed while a request writes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def _closed_by_server(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Discards a pooled connection that PostgreSQL has closed; a ``DisconnectionError`` makes
    the pool take another connection."""
    if closed_by_server(cast(psycopg.Connection[Any], dbapi_connection)):
        raise DisconnectionError("the server closed the connection")


def closed_by_server(connection: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether PostgreSQL has closed an idle connection (a restart, a terminated backend): the
    server then sends its farewell and ends the stream, so the idle socket reads as readable.
    That local check replaces a pool's pre-ping, a ``SELECT 1`` round trip before every
    request."""
    if connection.closed:
        return True
    idle = select.poll()
    idle.register(connection.fileno(), select.POLLIN)
    return bool(idle.poll(0))


def planned_once(statement: E) -> E:
    """``statement`` prepared on each connection the first time it runs there, so PostgreSQL
    plans it once instead of on every request: for a statement whose best plan cannot depend on
    its values (a row by its key, the rows of a page by theirs, the caller's session). A list of
    a company's rows is planned for its values each time: a plan kept for any company is the
    plan for a typical one, and the largest customer's count of open tickets took six times as
    long with it (docs/decisions/planned-once.md)."""
    return statement.execution_options(**{_PLANNED_ONCE: True})


def _execute(
    cursor: DBAPICursor, statement: str, parameters: Any, context: ExecutionContext
) -> bool:
    # psycopg prepares only what ``planned_once`` marks: left to itself, it prepares any
    # statement at its fifth run on a connection, the lists' included. A server-side cursor (a
    # streamed export) declares its statement and prepares nothing: SQLAlchemy runs it.
    if isinstance(cursor, psycopg.ServerCursor):
        return False
    prepare = bool(context.execution_options.get(_PLANNED_ONCE))
    cast(psycopg.Cursor[Any], cursor).execute(statement, parameters, prepare=prepare)
    return True


class CursorRead:
    """A ``select`` run straight on the DBAPI cursor of a session's connection, for a statement
    every request runs: compiled once per dialect, its rows converted by its columns' own
    result processors (the same values SQLAlchemy gives), prepared when ``planned_once``.
    SQLAlchemy's execution around a statement (the execution context, the compiled cache's
    look-up, the result's set-up and rows) was a third of the principal's read, its session
    included (docs/decisions/provider-floor.md)."""

    def __init__(self, statement: Select) -> None:
        self.statement = statement
        self.prepare = bool(statement.get_execution_options().get(_PLANNED_ONCE))
        self._compiled: dict[str, _CompiledRead] = {}

    def compiled(self, dialect: Dialect) -> "_CompiledRead":
        compiled = self._compiled.get(dialect.name)
        if compiled is None:
            compiled = self._compiled[dialect.name] = _CompiledRead(self.statement, dialect)
        return compiled

    def rows(self, db: Session, parameters: dict[str, Any]) -> list[tuple[Any, ...]]:
        connection = db.connection()
        compiled = self.compiled(connection.dialect)
        values = compiled.parameters(parameters)
        cursor = connection.connection.cursor()
        try:
            # Whatever watches the engine's statements (the tests' counts, the benchmark's
            # capture of the provider's SQL) sees this one too.
            connection.dispatch.before_cursor_execute(
                connection, cursor, compiled.sql, values, None, False
            )
            if self.prepare and connection.dialect.name == "postgresql":
                cast(psycopg.Cursor[Any], cursor).execute(compiled.sql, values, prepare=True)
            else:
                cursor.execute(compiled.sql, values)
            return [compiled.values(row) for row in cursor.fetchall()]
        finally:
            cursor.close()


class _CompiledRead:
    def __init__(self, statement: Select, dialect: Dialect) -> None:
        self.compiled = statement.compile(dialect=dialect)
        self.sql = self.compiled.string
        self.positions = self.compiled.positiontup
        # What SQLAlchemy would do to each value on the way in and each column on the way out.
        self.binds = {
            name: bind.type.dialect_impl(dialect).bind_processor(dialect)
            for name, bind in self.compiled.binds.items()
        }
        self.processors = [
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in statement.selected_columns
        ]

    def parameters(self, values: dict[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        named = self.compiled.construct_params(values)
        for name, process in self.binds.items():
            if process is not None and named.get(name) is not None:
                named[name] = process(named[name])
        return [named[name] for name in self.positions] if self.positions else named

    def values(self, row: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(
            value if process is None or value is None else process(value)
            for process, value in zip(self.processors, row, strict=True)
        )


def upsert(db: Session, model: type[Any]) -> postgresql.Insert | sqlite.Insert:
    """An ``INSERT`` into ``model``'s table that takes ``ON CONFLICT`` clauses, which both
    databases write alike but SQLAlchemy builds per dialect."""
    dialect = postgresql if db.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(model)


def read_engine(engine: Engine) -> Engine:
    """``engine`` for requests that change nothing: each statement commits on its own. A read
    then makes no ``BEGIN`` and ``ROLLBACK`` round trips, and psycopg keeps its prepared
    statements, which a rollback discards. The writes such a request makes (a session's last
    activity) are single statements."""
    return engine.execution_options(isolation_level="AUTOCOMMIT")


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request. Opened and closed on the event loop: as a plain generator,
    FastAPI would enter and leave it in the thread pool, two of the five thread hops a request
    made, whose cost outweighed a small route's own work (docs/decisions/request-session.md).
    Opening a session does no I/O; closing it hands its connection back to the pool."""
    with request_session(request) as session:
        yield session


def request_session(request: Request, expire_on_commit: bool = True) -> Session:
    """A session on the engine for ``request``'s method (``read_engine`` for a read)."""
    state = request.app.state
    engine = state.read_engine if request.method in READ_METHODS else state.engine
    return Session(engine, expire_on_commit=expire_on_commit)


SessionDep = Annotated[Session, Depends(get_session)]


def preload(*relationships: object) -> list[LoaderOption]:
    """Loader options for relationships a response shows: a single related row (a service's
    type, its endpoints) joined into the statement itself, a list of rows (its milestones) in
    one query for all the rows of the statement. SQLModel types a relationship as its target
    model, hence the cast."""
    options: list[LoaderOption] = []
    for relationship in relationships:
        attribute = cast(QueryableAttribute[Any], relationship)
        collection = attribute.property.uselist
        options.append(selectinload(attribute) if collection else joinedload(attribute))
    return options
