"""One start-up at a time: the lock under which migrations and the first seed run.

Several workers of several instances may start together on an empty database: the first to
take the lock migrates and seeds, the others wait and then find the schema at head and the
demo loaded. PostgreSQL: a session-level advisory lock, held on a connection of its own while
the migrations (which take their own transaction lock under another key) and the seed run on
others. SQLite: an exclusive ``flock`` on a file beside the database, which also holds between
processes; an in-memory database has one process only.
"""

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import Engine

# Another arbitrary constant than the migrations' own (migrations/env.py), which is taken inside.
STARTUP_LOCK_KEY = 0x50415444


@contextmanager
def startup_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": STARTUP_LOCK_KEY})
            connection.commit()
            try:
                yield
            finally:
                connection.execute(
                    sa.text("SELECT pg_advisory_unlock(:key)"), {"key": STARTUP_LOCK_KEY}
                )
                connection.commit()
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    lock_path = Path(database).with_name(Path(database).name + ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
