"""One start-up at a time: the lock under which migrations and the first seed run.

Several workers of several instances may start together on an empty database: the first to
take the lock migrates and seeds, the others wait and then find the schema at head and the
demo loaded. PostgreSQL: a session-level advisory lock, held on a connection of its own while
the migrations (which take their own transaction lock under another key) and the seed run on
others. SQLite: an exclusive ``flock`` on a file beside the database, which also holds between
processes; an in-memory database has one process only.

Before it, every start (the portal's, the command line's) makes the data directory private and
checks the key of the second factors (issue 47, item 18): the database file, the documents,
the mail files and the development key are their user's alone.
"""

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import Engine

from portal.private_files import private_directory, private_file
from portal.provider.platform.keys import second_factor_keys
from portal.settings import get_settings

# Another arbitrary constant than the migrations' own (migrations/env.py), which is taken inside.
STARTUP_LOCK_KEY = 0x50415444


@contextmanager
def startup_lock(engine: Engine) -> Iterator[None]:
    private_directory(get_settings().data_dir)
    second_factor_keys()  # refuses to start in production without SECOND_FACTOR_KEY
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
    private_file(lock_path)
    with lock_path.open("a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
