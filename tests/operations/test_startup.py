"""Safe start-up (issue 17): several processes starting together on an empty database migrate
it and seed the demo once, without an error — on PostgreSQL (the advisory lock) when
``DATABASE_URL`` names it, and on SQLite (a file lock) always; CI runs both."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory

from portal.provider.migrate import alembic_config
from portal.provider.platform.db import create_db_engine
from portal.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 4
_START = """
import time
from portal.provider.platform.db import create_db_engine
from portal.provider.main import prepare_database
engine = create_db_engine()
time.sleep(max(0.0, {at} - time.time()))  # every process leaves the starting line together
prepare_database(engine)
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    configured = os.environ.get("DATABASE_URL", "")
    if not configured.startswith("postgres"):
        pytest.skip("DATABASE_URL names no PostgreSQL server")
    server = Settings(database_url=configured).sqlalchemy_url
    url = sa.make_url(server)
    name = f"{url.database}_startup"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}"')
        db.execute(f'CREATE DATABASE "{name}"')
    yield url.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_instances_starting_together_migrate_and_seed_once(
    empty_database: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": empty_database,
        "ENVIRONMENT": "development",
        "SEED_DEMO": "true",
        "DATA_DIR": str(tmp_path / "data"),
        "MAIL_DIR": str(tmp_path / "mail"),
    }
    at = time.time() + 4  # after every interpreter has imported the provider
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _START.format(at=at)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    outputs = [process.communicate(timeout=240)[0] for process in processes]
    for process, output in zip(processes, outputs, strict=True):
        assert process.returncode == 0, output
        assert "Traceback" not in output, output

    engine = create_db_engine(Settings(database_url=empty_database).sqlalchemy_url)
    try:
        head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
        with engine.connect() as db:
            assert db.execute(sa.text("SELECT version_num FROM alembic_version")).all() == [(head,)]
            companies = db.execute(
                sa.text("SELECT count(*) FROM companies WHERE name = 'Acme Networks'")
            ).scalar_one()
            admins = db.execute(
                sa.text("SELECT count(*) FROM users WHERE email = 'admin@patchbay.test'")
            ).scalar_one()
    finally:
        engine.dispose()
    assert companies == 1
    assert admins == 1
