"""The seeded demo database kept in memory and put back before each browser test module.

``reset-demo`` builds the demo again from scratch (argon2, PDFs, tens of thousands of sensor
samples): 5 to 9 seconds, once per module, twice per CI run. The demo is the same every time, so
the browser tests take it once and put it back: SQLite through its backup API, PostgreSQL
through binary COPY with the sequences' positions. A module still finds exactly what a fresh
install has (``test_reset_demo`` proves ``reset-demo`` itself); the portal keeps running and
sees the restored rows on its next query.
"""

import sqlite3
from contextlib import closing
from dataclasses import dataclass, field

import psycopg
import sqlalchemy as sa
from psycopg import sql

from portal.provider.platform.models import metadata

_ATTEMPTS = 3


@dataclass
class DemoSnapshot:
    """What the database held when taken: a SQLite copy, or each PostgreSQL table's rows."""

    url: sa.URL
    sqlite_copy: sqlite3.Connection | None = None
    tables: dict[str, bytes] = field(default_factory=dict)
    sequences: dict[str, int] = field(default_factory=dict)

    @classmethod
    def take(cls, database_url: str) -> "DemoSnapshot":
        url = sa.make_url(database_url)
        snapshot = cls(url)
        if url.get_backend_name() == "sqlite":
            snapshot.sqlite_copy = sqlite3.connect(":memory:", check_same_thread=False)
            with closing(sqlite3.connect(str(url.database))) as source:
                source.backup(snapshot.sqlite_copy)
            return snapshot
        with psycopg.connect(snapshot._libpq_url()) as db:
            for table in metadata.sorted_tables:
                with db.cursor().copy(
                    sql.SQL("COPY {} TO STDOUT (FORMAT binary)").format(sql.Identifier(table.name))
                ) as copy:
                    snapshot.tables[table.name] = b"".join(bytes(block) for block in copy)
            snapshot.sequences = {
                name: value
                for name, value in db.execute(
                    "SELECT sequencename, last_value FROM pg_sequences "
                    "WHERE schemaname = 'public' AND last_value IS NOT NULL"
                )
            }
        return snapshot

    def restore(self) -> None:
        if self.sqlite_copy is not None:
            with closing(sqlite3.connect(str(self.url.database), timeout=30)) as target:
                self.sqlite_copy.backup(target)
            return
        # The portal keeps running between modules: a request the previous module left in flight
        # may hold a table the TRUNCATE needs next while it waits on one the TRUNCATE holds.
        # PostgreSQL ends the deadlock by failing the TRUNCATE, rolled back whole: it can go again.
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                self._restore_postgresql()
                return
            except psycopg.errors.DeadlockDetected:
                if attempt == _ATTEMPTS:
                    raise

    def _restore_postgresql(self) -> None:
        with psycopg.connect(self._libpq_url()) as db:
            names = sql.SQL(", ").join(sql.Identifier(name) for name in self.tables)
            db.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY").format(names))
            # Rows go back in dependency order; replica mode spares the foreign-key triggers
            # the checks that a table referring to itself would fail row by row.
            db.execute("SET LOCAL session_replication_role = replica")
            for name, rows in self.tables.items():
                with db.cursor().copy(
                    sql.SQL("COPY {} FROM STDIN (FORMAT binary)").format(sql.Identifier(name))
                ) as copy:
                    copy.write(rows)
            for name, value in self.sequences.items():
                db.execute("SELECT setval(%s, %s)", (name, value))

    def _libpq_url(self) -> str:
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)
