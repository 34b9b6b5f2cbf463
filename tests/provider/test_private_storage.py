"""The provider's files are its user's alone (issue 47, item 18): ``data/provider.db`` was
0644, the second factors' secrets in it. The SQLite database is created 0600 and the data
directory 0700, whatever the umask of the command that starts the provider; modes left open by
an earlier version are closed at start, and said so in the log."""

import logging
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.startup import startup_lock
from tests.provider.settings_override import overridden


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask of a shell (022), with which files are readable by every local user."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_a_new_database_and_data_directory_are_private(tmp_path: Path, usual_umask: None) -> None:
    data_dir, database = tmp_path / "data", tmp_path / "db" / "provider.db"
    with overridden(data_dir=data_dir):
        engine = create_db_engine(f"sqlite:///{database}")
        with startup_lock(engine):
            migrate(engine)
        with engine.connect():  # WAL: the -wal and -shm files exist while a connection is open
            companions = [database.with_name(database.name + s) for s in ("-wal", "-shm")]
            assert {path.name: _mode(path) for path in [database, *companions]} == {
                "provider.db": 0o600,
                "provider.db-wal": 0o600,
                "provider.db-shm": 0o600,
            }
        engine.dispose()
    assert _mode(database.parent) == 0o700
    assert _mode(database.with_name("provider.db.lock")) == 0o600
    assert _mode(data_dir) == 0o700


def test_files_left_open_are_closed_at_start_and_logged(
    tmp_path: Path, usual_umask: None, caplog: pytest.LogCaptureFixture
) -> None:
    data_dir, database = tmp_path / "data", tmp_path / "data" / "provider.db"
    data_dir.mkdir()
    sqlite3.connect(database).close()  # as an earlier version left it
    wal = database.with_name("provider.db-wal")
    wal.touch()
    assert (_mode(data_dir), _mode(database), _mode(wal)) == (0o755, 0o644, 0o644)
    with caplog.at_level(logging.WARNING), overridden(data_dir=data_dir):
        engine = create_db_engine(f"sqlite:///{database}")
        with startup_lock(engine):
            pass
        engine.dispose()
    assert (_mode(data_dir), _mode(database), _mode(wal)) == (0o700, 0o600, 0o600)
    warned = [record.getMessage() for record in caplog.records]
    assert f"{database} was open to other users (644): now 600" in warned
    assert f"{data_dir} was open to other users (755): now 700" in warned
