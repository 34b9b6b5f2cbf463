"""The provider's database: one engine per URL, a session per request.

SQLite (a file under ``data/``) by default, PostgreSQL through ``DATABASE_URL=postgresql://…``
with psycopg 3. Routes take ``SessionDep``; the engine comes from the application's state, so
tests and the CLI can point an app at any database.
"""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, cast

from fastapi import Depends, Request
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import QueryableAttribute, joinedload, selectinload
from sqlalchemy.orm.interfaces import LoaderOption
from sqlmodel import Session, create_engine

from portal.settings import get_settings


def create_db_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (the settings' database by default)."""
    url = url or get_settings().sqlalchemy_url
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # JIT compilation pays for analytics, not for the provider's short indexed queries: a
        # calendar month's count (a costly-looking sub-plan) spent 5 ms of its 30 compiling.
        return create_engine(url, pool_pre_ping=True, connect_args={"options": "-c jit=off"})
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _configure_sqlite)
    return engine


def _configure_sqlite(connection: Any, _record: Any) -> None:
    # SQLite ignores foreign keys (and so ON DELETE CASCADE) unless asked on every connection;
    # WAL lets readers proceed while a request writes.
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request. Opened and closed on the event loop: as a plain generator,
    FastAPI would enter and leave it in the thread pool, two of the five thread hops a request
    made, whose cost outweighed a small route's own work (docs/decisions/request-session.md).
    Opening a session does no I/O; closing it hands its connection back to the pool with one
    short round trip."""
    with Session(request.app.state.engine) as session:
        yield session


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
