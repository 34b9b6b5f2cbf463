"""The provider's database sessions: a request that changes nothing reads outside a transaction,
only the statements marked ``planned_once`` are prepared, and a pooled connection the server
closed is replaced before it serves a request."""

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.pool import NullPool, QueuePool
from sqlmodel import Session, col, delete, select

from portal.provider.main import create_app
from portal.provider.platform.db import (
    CursorRead,
    SessionDep,
    create_db_engine,
    planned_once,
    read_engine,
)
from portal.provider.platform.models import Company, User
from portal.provider.platform.sessions import COOKIE_NAME
from tests.provider.conftest import World
from tests.provider.settings_override import overridden


def test_a_request_that_changes_nothing_reads_outside_a_transaction(engine: sa.Engine) -> None:
    app = FastAPI()
    app.state.engine = engine
    app.state.read_engine = read_engine(engine)

    @app.api_route("/probe", methods=["GET", "HEAD", "POST", "PATCH", "DELETE"])
    def isolation(db: SessionDep) -> str | None:
        return db.connection().get_execution_options().get("isolation_level")

    probe = TestClient(app)
    assert probe.get("/probe").json() == "AUTOCOMMIT"
    for method in ("POST", "PATCH", "DELETE"):
        assert probe.request(method, "/probe").json() is None, method


@pytest.fixture
def company_name(engine: sa.Engine) -> Iterator[str]:
    """A company name of the test's own; its row, if the test left one, goes afterwards."""
    name = f"Probe {uuid.uuid4()}"
    yield name
    with Session(engine) as db:
        db.exec(delete(Company).where(col(Company.name) == name))
        db.commit()


def _stored(engine: sa.Engine, name: str) -> list[str]:
    with Session(engine) as db:
        return list(db.exec(select(Company.name).where(Company.name == name)))


def test_each_statement_of_a_read_session_commits_on_its_own(
    engine: sa.Engine, company_name: str
) -> None:
    with Session(read_engine(engine)) as db:
        db.add(Company(name=company_name))
        db.flush()
        # Seen from another connection before this session commits or closes.
        assert _stored(engine, company_name) == [company_name]


def test_a_write_session_keeps_its_transaction(engine: sa.Engine, company_name: str) -> None:
    with Session(engine) as db:
        db.add(Company(name=company_name))
        db.flush()
        assert _stored(engine, company_name) == []
    assert _stored(engine, company_name) == []


def test_only_statements_planned_once_are_prepared(engine: sa.Engine) -> None:
    if engine.dialect.name != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's (set DATABASE_URL=postgresql://…)")
    by_key = planned_once(select(Company).where(Company.id == uuid.uuid4()))
    by_name = select(Company).where(Company.name == "nobody")
    with Session(read_engine(engine)) as db:
        # psycopg would prepare an unmarked statement at its fifth run on a connection.
        for _ in range(6):
            db.exec(by_key).first()
            db.exec(by_name).first()
        prepared = db.execute(sa.text("SELECT statement FROM pg_prepared_statements")).all()
    statements = [row[0] for row in prepared]
    assert any("companies.id =" in statement for statement in statements), statements
    assert not any("companies.name =" in statement for statement in statements), statements


def test_a_connection_the_server_closed_is_replaced_at_checkout(engine: sa.Engine) -> None:
    """A PostgreSQL restart or a terminated backend leaves dead connections in the pool: the
    next request gets a live one, with no ``SELECT 1`` before each checkout to find out."""
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite has no server to close a connection")
    url = engine.url.render_as_string(hide_password=False)
    pooled = create_db_engine(url)  # its pool holds the one connection this test makes
    administrator = sa.create_engine(url, poolclass=NullPool)
    try:
        with pooled.connect() as connection:
            backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with administrator.connect() as other:
            other.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
            deadline = time.monotonic() + 10
            alive = sa.text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid")
            while other.execute(alive, {"pid": backend}).scalar() and time.monotonic() < deadline:
                time.sleep(0.05)

        with pooled.connect() as connection:
            assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar() != backend
    finally:
        pooled.dispose()
        administrator.dispose()


def test_a_burst_opens_no_connection_beyond_the_pool(engine: sa.Engine) -> None:
    """Connections opened beyond the pool for a burst would be closed after it, and the next
    burst would pay new server processes and prepare its statements again: the requests beyond
    ``DATABASE_POOL_SIZE`` wait for a pooled connection instead."""
    if engine.dialect.name != "postgresql":
        pytest.skip("the pool is sized for PostgreSQL (set DATABASE_URL=postgresql://…)")
    with overridden(database_pool_size=2):
        pooled = create_db_engine(engine.url.render_as_string(hide_password=False))
    pool = pooled.pool
    assert isinstance(pool, QueuePool)
    most = 0
    guard = threading.Lock()

    def hold() -> None:
        nonlocal most
        with pooled.connect():
            with guard:
                most = max(most, pool.checkedout())
            time.sleep(0.1)

    try:
        threads = [threading.Thread(target=hold) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        pooled.dispose()
    assert most == 2


def test_a_request_that_finds_every_connection_busy_gets_a_503(tmp_path: Path) -> None:
    """After the pool's timeout the caller is told to try again, not given a server error."""
    # No timeout to wait out: a timed wait never ends under CI's moved clock (libfaketime).
    busy = sa.create_engine(
        f"sqlite:///{tmp_path / 'busy.db'}", pool_size=1, max_overflow=0, pool_timeout=0
    )
    client = TestClient(create_app(busy))
    try:
        with busy.connect():
            # A session cookie: the principal's lookup needs a connection.
            response = client.get("/api/service_types", cookies={COOKIE_NAME: "a-session"})
        assert response.status_code == 503, response.text
        assert response.headers["Retry-After"] == "5"
        assert response.json()["status"] == 503
    finally:
        busy.dispose()


def test_a_cursor_read_gives_the_values_sqlalchemy_gives(engine: sa.Engine, world: World) -> None:
    """``CursorRead`` (the principal's read) converts each column and parameter as SQLAlchemy
    does: ids, times, JSON, enumerations, flags and nulls, on SQLite and PostgreSQL alike; a
    statement planned once is prepared, and watchers of the engine see it."""
    statement = planned_once(
        sa.select(
            col(User.id),
            col(User.email),
            col(User.roles),
            col(User.job),
            col(User.has_accepted_terms),
            col(User.created_at),
            col(User.terms_accepted_at),
            col(User.manager_id),
        )
        .where(col(User.company_id) == sa.bindparam("company_id"))
        .order_by(col(User.email))
    )
    read = CursorRead(statement)
    parameters = {"company_id": world.companies["acme"]}
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        seen.append(sql)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        with Session(read_engine(engine)) as db:
            expected = [tuple(row) for row in db.connection().execute(statement, parameters)]
            for _ in range(2):
                assert read.rows(db, parameters) == expected
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert len(expected) > 1
    assert any(roles for _, _, roles, *_ in expected)
    assert len(seen) == 3
    if engine.dialect.name == "postgresql":
        with Session(read_engine(engine)) as db:
            read.rows(db, parameters)
            prepared = db.execute(sa.text("SELECT statement FROM pg_prepared_statements")).all()
        assert any("users.company_id =" in row[0] for row in prepared), prepared
