"""Backup and restore, rehearsed (issue 17): fill a database, back it up with deploy/backup.sh,
wipe the database and the documents, restore with deploy/restore.sh, then log in and download
a document. PostgreSQL: the database of ``DATABASE_URL`` names the server (CI's operations step);
the rehearsal uses a scratch database beside it."""

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlmodel import Session, select

from portal.provider.main import create_app
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import Company, Service, ServiceDocument
from portal.settings import Settings, get_settings

ROOT = Path(__file__).resolve().parents[2]
DEMO_PASSWORD = "Patchbay-demo-2026"

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="pg_dump and pg_restore need PostgreSQL: set DATABASE_URL (CI's operations step does)",
)


def _admin_and_scratch() -> tuple[str, str, str]:
    url = sa.make_url(Settings(database_url=os.environ["DATABASE_URL"]).sqlalchemy_url)
    name = f"{url.database}_backup"
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    scratch = url.set(drivername="postgresql", database=name).render_as_string(hide_password=False)
    return admin, name, scratch


def _recreate(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')


@pytest.fixture
def scratch_database() -> Iterator[tuple[str, str, str]]:
    admin, name, scratch = _admin_and_scratch()
    _recreate(admin, name)
    yield admin, name, scratch
    with psycopg.connect(admin, autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


async def test_backup_wipe_restore_then_log_in_and_download_a_document(
    scratch_database: tuple[str, str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    admin, name, scratch = scratch_database
    data_dir = tmp_path / "data"
    env = {
        **os.environ,
        "DATABASE_URL": scratch,
        "DATA_DIR": str(data_dir),
        "MAIL_DIR": str(tmp_path / "mail"),
        "ENVIRONMENT": "development",
    }
    # Fill.
    _run([sys.executable, "-m", "portal.provider", "seed-demo"], env)
    engine = create_db_engine(Settings(database_url=scratch).sqlalchemy_url)
    with Session(engine) as db:
        service_id, document_id, stored = db.exec(
            select(Service.id, ServiceDocument.id, ServiceDocument.file_path)
            .join(ServiceDocument, ServiceDocument.service_id == Service.id)
            .join(Company, Company.id == Service.company_id)
            .where(Company.name == "Acme Networks")
        ).first()
    engine.dispose()
    original = (data_dir / stored).read_bytes()

    # Back up, then lose everything.
    backup = tmp_path / "backup"
    _run(["deploy/backup.sh", str(backup)], env)
    assert (backup / "database.dump").stat().st_size > 0
    _recreate(admin, name)
    shutil.rmtree(data_dir)

    # Restore, start the provider on it, log in, download.
    _run(["deploy/restore.sh", str(backup)], env)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("SEED_DEMO", "false")
    get_settings.cache_clear()
    engine = create_db_engine(Settings(database_url=scratch).sqlalchemy_url)
    try:
        app = FastAPI()
        provider = create_app(engine)
        app.mount("/provider", provider)
        async with (
            provider.router.lifespan_context(provider),
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app), base_url="http://testserver/provider"
            ) as client,
        ):
            login = await client.post(
                "/login", json={"username": "alice@acme-networks.test", "password": DEMO_PASSWORD}
            )
            assert login.status_code == 204, login.text
            download = await client.get(f"/api/services/{service_id}/documents/{document_id}")
            assert download.status_code == 200, download.text
            assert download.content == original
    finally:
        engine.dispose()
        get_settings.cache_clear()
