"""Faults (issue 17): PostgreSQL and Redis stopped and started again under a bounded load on
loopback. PostgreSQL is a throw-away cluster of this test's own (Debian's binaries, a spare
port, run as the ``postgres`` user when the test runs as root), Redis a ``redis-server`` of its
own: the machine's shared servers are never touched.

During the database outage every request answers at once with a translated 503 (no stack
trace, no hang), a write is not half-applied, and the provider serves again within seconds of
the database's return without a restart (the pool's pre-ping). The portal's session store
answers again as soon as Redis is back. The SMTP outage: tests/provider/test_outbox.py."""

import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from fastapi import FastAPI
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.db import create_db_engine
from portal.provider.main import create_app
from portal.provider.migrate import migrate
from portal.provider.models import Company, User
from portal.provider.passwords import hash_password
from portal.session_store import PortalSession, SessionStore
from portal.settings import Settings
from tests.redis_server import RedisServer

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PASSWORD = "Fault-tolerant-2026"
UNAVAILABLE_FR = (
    "Le service est momentanément indisponible. Veuillez réessayer dans quelques instants."
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OwnPostgres:
    def __init__(self, directory: Path, port: int) -> None:
        self.directory = directory
        self.port = port
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(PG_BIN / "pg_ctl"), "-D", str(self.directory / "cluster"), *args],
            check=True,
            capture_output=True,
        )

    def init(self) -> None:
        if self.as_user:
            shutil.chown(self.directory, "postgres", "postgres")
        subprocess.run(
            [*self.as_user, str(PG_BIN / "initdb"), "-D", str(self.directory / "cluster"),
             "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True,
        )  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._ctl("-o", options, "-l", str(self.directory / "server.log"), "-w", "start")

    def stop(self) -> None:
        self._ctl("-m", "fast", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"


@pytest.fixture(scope="module")
def own_postgres() -> Iterator[OwnPostgres]:
    if not (PG_BIN / "initdb").exists():
        pytest.skip("Debian's PostgreSQL 15 binaries are not installed")
    directory = Path(tempfile.mkdtemp(prefix="patchbay-pg-"))
    server = OwnPostgres(directory, _free_port())
    server.init()
    server.start()
    try:
        yield server
    finally:
        subprocess.run(
            [*server.as_user, str(PG_BIN / "pg_ctl"), "-D", str(directory / "cluster"),
             "-m", "immediate", "stop"],
            capture_output=True, check=False,
        )  # fmt: skip
        shutil.rmtree(directory, ignore_errors=True)


async def test_a_database_outage_answers_503_and_recovers_without_a_restart(
    own_postgres: OwnPostgres,
) -> None:
    engine = create_db_engine(own_postgres.url)
    migrate(engine)
    with Session(engine) as db:
        company = Company(name="Acme Networks")
        db.add(company)
        db.flush()
        user = User(
            firstname="Alice", lastname="Martin", email="alice@acme-networks.test",
            company_id=company.id, roles=[Role.MANAGE_USERS], has_accepted_terms=True,
            password_hash=hash_password(PASSWORD),
        )  # fmt: skip
        db.add(user)
        db.commit()
        user_id = user.id
    parent = FastAPI()
    parent.mount("/provider", create_app(engine))
    transport = httpx.ASGITransport(parent)
    async with httpx.AsyncClient(
        transport=transport,
        base_url="http://testserver/provider",
        headers={"Accept-Language": "fr"},
        timeout=30,
    ) as client:
        login = await client.post("/login", json={"username": user.email, "password": PASSWORD})
        assert login.status_code == 204
        path = f"/api/users/{user_id}"
        assert (await client.get(path)).status_code == 200

        own_postgres.stop()
        started = time.monotonic()
        during = [await client.get(path) for _ in range(20)]
        write = await client.patch(
            path,
            json={"lastname": "Half-applied"},
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert time.monotonic() - started < 10  # each answer comes at once, none hangs
        for response in [*during, write]:
            assert response.status_code == 503, response.text
            assert response.json()["detail"] == UNAVAILABLE_FR
            assert response.headers["Retry-After"] == "5"
            assert "Traceback" not in response.text
            assert "psycopg" not in response.text.lower()

        own_postgres.start()
        back = time.monotonic()
        statuses = []
        while time.monotonic() - back < 15:
            response = await client.get(path)
            statuses.append(response.status_code)
            if response.status_code == 200:
                break
            await asyncio.sleep(0.2)
        assert statuses[-1] == 200, statuses
        assert time.monotonic() - back < 10
        # The session survived the outage, and the write during it left nothing behind.
        assert response.json()["lastname"] == "Martin"
        patched = await client.patch(
            path,
            json={"lastname": "Durand"},
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert patched.status_code == 200, patched.text
    engine.dispose()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    yield server
    server.stop()


async def test_the_session_store_answers_again_once_redis_is_back(
    own_redis: RedisServer,
) -> None:
    own_redis.start()
    store = SessionStore(Settings(redis_url=own_redis.url))
    token = await store.create(PortalSession(user_id="u1", provider_cookies={"a": "b"}))
    assert await store.load(token) is not None

    own_redis.stop()
    with pytest.raises(redis.ConnectionError):
        await store.load(token)

    # Redis keeps nothing here (--save ""): the session is gone, the user logs in again; the
    # portal process needs no restart to use the new server.
    own_redis.start()
    assert await store.load(token) is None
    again = await store.create(PortalSession(user_id="u1", provider_cookies={"a": "b"}))
    assert await store.load(again) is not None
