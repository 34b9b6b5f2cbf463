"""PostgreSQL's bulk path: one transaction that empties the tables, sets their indexes aside,
COPYs every table in (FREEZE: the rows are written already frozen, so the final VACUUM has
little to do), builds the indexes again in one sorted pass each, and commits.

Foreign keys stay declared but their triggers are off while loading
(``session_replication_role = replica``, as ``pg_restore --disable-triggers`` does): checking
a hundred million references one row at a time would take longer than the load itself. The
generator only writes references it has created; its tests check every foreign key afterwards.
"""

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import NamedTuple

import psycopg
from psycopg import sql

from bench.generate.spool import Spool

Log = Callable[[str], None]

_SET_ASIDE = """
SELECT c.relname, i.relname, con.conname, pg_get_indexdef(i.oid), pg_get_constraintdef(con.oid)
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_class c ON c.oid = x.indrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_constraint con ON con.conindid = i.oid AND con.contype IN ('p', 'u')
WHERE n.nspname = current_schema() AND c.relname <> 'alembic_version'
  AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.oid)
ORDER BY c.relname, i.relname
"""


class SetAside(NamedTuple):
    """An index dropped for the load, with what drops and rebuilds it."""

    table: str
    name: str
    drop: sql.Composed
    rebuild: sql.SQL | sql.Composed


def plain_url(url: str) -> str:
    """psycopg takes ``postgresql://``; the settings may carry SQLAlchemy's driver suffix."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def provider_tables(connection: psycopg.Connection) -> list[str]:
    rows = connection.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        " AND tablename <> 'alembic_version' ORDER BY tablename"
    ).fetchall()
    return [row[0] for row in rows]


def begin(connection: psycopg.Connection) -> list[SetAside]:
    """Empty every provider table and drop the indexes no foreign key depends on."""
    connection.execute("SET session_replication_role = replica")
    connection.execute("SET maintenance_work_mem = '1GB'")
    connection.execute("SET synchronous_commit = off")
    tables = provider_tables(connection)
    connection.execute(
        sql.SQL("TRUNCATE {} CASCADE").format(sql.SQL(", ").join(map(sql.Identifier, tables)))
    )
    set_aside = []
    for table, index, constraint, index_sql, constraint_sql in connection.execute(_SET_ASIDE):
        if constraint:
            drop = sql.SQL("ALTER TABLE {} DROP CONSTRAINT {}").format(
                sql.Identifier(table), sql.Identifier(constraint)
            )
            rebuild: sql.SQL | sql.Composed = sql.SQL("ALTER TABLE {} ADD CONSTRAINT {} {}").format(
                sql.Identifier(table), sql.Identifier(constraint), sql.SQL(constraint_sql)
            )
        else:
            drop = sql.SQL("DROP INDEX {}").format(sql.Identifier(index))
            rebuild = sql.SQL(index_sql)
        set_aside.append(SetAside(table, index, drop, rebuild))
    for entry in set_aside:
        connection.execute(entry.drop)
    return set_aside


def rebuild(connection: psycopg.Connection, set_aside: list[SetAside], log: Log) -> None:
    started = time.perf_counter()
    for entry in set_aside:
        connection.execute(entry.rebuild)
    log(f"{'indexes':<28} {len(set_aside):>12,} rebuilt {time.perf_counter() - started:>24.1f} s")


_REQUIRED = """
SELECT column_name FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name = %s
  AND is_nullable = 'NO' AND column_default IS NULL
"""


def check_columns(connection: psycopg.Connection, table: str, columns: Iterable[str]) -> None:
    """A column added by a later migration without a default needs a value from the generator:
    say which, rather than let COPY fail on its first row."""
    required = {row[0] for row in connection.execute(_REQUIRED, (table,))}
    missing = sorted(required - set(columns))
    if missing:
        raise RuntimeError(f"the generator writes no value for {table}.{', '.join(missing)}")


def copy_statement(table: str, columns: Iterable[str], binary: bool = False) -> sql.Composed:
    options = "FORMAT binary, FREEZE" if binary else "FREEZE"
    return sql.SQL("COPY {} ({}) FROM STDIN ({})").format(
        sql.Identifier(table),
        sql.SQL(", ").join(map(sql.Identifier, columns)),
        sql.SQL(options),
    )


def copy_chunks(
    connection: psycopg.Connection, statement: sql.Composed, chunks: Iterable[bytes]
) -> None:
    with connection.cursor() as cursor, cursor.copy(statement) as copy:
        for chunk in chunks:
            copy.write(chunk)


class Loader:
    """COPYs finished spools on a thread of its own while the next tables are generated: the
    database parses on one core while Python draws rows on the other."""

    def __init__(self, connection: psycopg.Connection, log: Log) -> None:
        self.connection = connection
        self.log = log
        self.error: BaseException | None = None
        self._queue: queue.Queue[Spool | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="copy", daemon=True)
        self._thread.start()

    def load(self, spool: Spool) -> None:
        spool.close()
        if self.error:
            raise RuntimeError("loading failed") from self.error
        self._queue.put(spool)

    def finish(self) -> None:
        self._queue.put(None)
        self._thread.join()
        if self.error:
            raise RuntimeError("loading failed") from self.error

    def _run(self) -> None:
        while (spool := self._queue.get()) is not None:
            if self.error:
                continue
            try:
                started = time.perf_counter()
                check_columns(self.connection, spool.table, spool.columns)
                statement = copy_statement(spool.table, spool.columns)
                copy_chunks(self.connection, statement, spool.chunks())
                took = time.perf_counter() - started
                rate = spool.rows / took if took else 0.0
                label = f"COPY {spool.table}"
                self.log(f"{label:<28} {spool.rows:>12,} rows {rate:>11,.0f} rows/s {took:7.1f} s")
            except BaseException as error:  # handed to the main thread at its next call
                self.error = error
