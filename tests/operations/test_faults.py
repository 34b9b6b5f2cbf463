"""Faults (issue 17): PostgreSQL, then Redis, then the SMTP server stopped and started again
under a bounded load on loopback. PostgreSQL is a throw-away cluster of this test's own
(Debian's binaries, a spare port, run as the ``postgres`` user when the test runs as root),
Redis a ``redis-server`` and SMTP an aiosmtpd server of its own: the machine's shared servers
are never touched.

During the database outage every request answers at once with a translated 503 (no stack trace,
no hang), a write is not half-applied, and the provider serves again within seconds of the
database's return without a restart (the pool replaces the connections it closed). While Redis
is down the provider serves on and the portal's session store fails fast; it answers again as
soon as Redis is back. Mails asked for while SMTP is down wait in the outbox and leave once it
is back. What a user of the portal sees in each case: docs/decisions/operations-faults.md, and
tests/deployment/test_two_instances.py for Redis in a browser."""

import asyncio
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sized
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import httpx
import psycopg
import pytest
import redis
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from sqlmodel import Session, func, select

from portal.permissions import Role
from portal.provider.accounts.passwords import hash_password
from portal.provider.main import create_app
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.mail.outbox import run_delivery_loop
from portal.provider.platform.models import AuditLog, Company, User
from portal.session_store import PortalSession, SessionStore
from portal.settings import Settings
from tests.ports import free_port
from tests.provider.mailbox import smtp_server
from tests.provider.settings_override import overridden
from tests.redis_server import RedisServer

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PASSWORD = "Fault-tolerant-2026"
UNAVAILABLE_FR = (
    "Le service est momentanément indisponible. Veuillez réessayer dans quelques instants."
)


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
    server = OwnPostgres(directory, free_port())
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


def _alice(engine: sa.Engine) -> User:
    """A customer user manager, logged in by the tests; the only account of the database."""
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
        db.refresh(user)
        db.expunge(user)
        return user


async def test_a_database_outage_answers_503_and_recovers_without_a_restart(
    own_postgres: OwnPostgres,
) -> None:
    engine = create_db_engine(own_postgres.url)
    migrate(engine)
    user = _alice(engine)
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


# --- the three outages in turn, under load ------------------------------------------------------

# The load: a reader and a writer of the provider, and the portal's session store, each one
# request at a time with a short pause: a few dozen requests a second in all.
PAUSE_SECONDS = 0.05
# However an outage shows, no request may hang longer than this.
ANSWER_SECONDS = 3
RECOVERY_SECONDS = 10


@dataclass
class Answer:
    phase: str
    kind: str  # "read", "write", "session", "reset"
    ok: bool
    status: int
    seconds: float
    detail: str = ""
    value: str = ""


class Load:
    """Runs the load and keeps every answer with the phase it came in."""

    def __init__(self, url: str, user_id: object, store: SessionStore) -> None:
        self.url = url
        self.path = f"/api/users/{user_id}"
        self.store = store
        self.phase = "before"
        self.answers: list[Answer] = []
        self.sent: Counter[str] = Counter()
        self.running = True

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.url, headers={"Accept-Language": "fr"}, timeout=ANSWER_SECONDS * 3
        )

    @staticmethod
    async def _sign_in(client: httpx.AsyncClient) -> None:
        login = await client.post(
            "/login", json={"username": "alice@acme-networks.test", "password": PASSWORD}
        )
        assert login.status_code == 204, login.text

    def stamp(self) -> tuple[str, float]:
        """The phase a request goes out in, and when. An answer counts in the phase it was asked
        in: a read sent just before PostgreSQL stops may come back, served, just after."""
        self.sent[self.phase] += 1
        return self.phase, time.monotonic()

    def keep(
        self, kind: str, sent: tuple[str, float], response: httpx.Response, value: str = ""
    ) -> None:
        phase, started = sent
        detail = response.json().get("detail", "") if response.status_code >= 400 else ""
        ok = response.status_code < 400
        seconds = time.monotonic() - started
        self.answers.append(Answer(phase, kind, ok, response.status_code, seconds, detail, value))

    async def read(self) -> None:
        async with self.client() as client:
            await self._sign_in(client)
            while self.running:
                sent = self.stamp()
                self.keep("read", sent, await client.get(self.path))
                await asyncio.sleep(PAUSE_SECONDS)

    async def write(self) -> None:
        async with self.client() as client:
            await self._sign_in(client)
            n = 0
            while self.running:
                n += 1
                sent = self.stamp()
                response = await client.patch(
                    self.path,
                    json={"lastname": f"Martin-{n}"},
                    headers={"Content-Type": "application/merge-patch+json"},
                )
                self.keep("write", sent, response, f"Martin-{n}")
                await asyncio.sleep(PAUSE_SECONDS * 2)

    async def sessions(self) -> None:
        while self.running:
            phase, started = self.stamp()
            try:
                token = await self.store.create(PortalSession(user_id="u1", provider_cookies={}))
                ok = await self.store.load(token) is not None
                detail = ""
            except redis.ConnectionError as error:
                ok, detail = False, type(error).__name__
            seconds = time.monotonic() - started
            self.answers.append(Answer(phase, "session", ok, 0, seconds, detail))
            await asyncio.sleep(PAUSE_SECONDS)

    async def answered(self, phase: str) -> None:
        """Until every request sent in ``phase`` has its answer (a hang is for the answers'
        own check to report: this waits no longer than an answer may take)."""
        began = time.monotonic()
        while time.monotonic() - began < ANSWER_SECONDS:
            if sum(answer.phase == phase for answer in self.answers) >= self.sent[phase]:
                return
            await asyncio.sleep(0.01)

    def of(self, phase: str, kind: str) -> list[Answer]:
        return [a for a in self.answers if a.phase == phase and a.kind == kind]

    async def until_ok(self, kind: str) -> float:
        """Seconds from now until an answer of ``kind`` succeeds again."""
        began, seen = time.monotonic(), len(self.answers)
        while time.monotonic() - began < RECOVERY_SECONDS * 2:
            if any(a.kind == kind and a.ok for a in self.answers[seen:]):
                return time.monotonic() - began
            await asyncio.sleep(0.05)
        return float("inf")


class Server(Protocol):
    def stop(self) -> None: ...
    def start(self) -> None: ...


async def _outage(load: Load, name: str, server: Server, kind: str) -> float:
    """Stops ``server`` under the load for a while, starts it again; answers the seconds from
    its start until an answer of ``kind`` succeeds again."""
    load.phase = f"{name} down"
    server.stop()
    await asyncio.sleep(2)
    load.phase = f"{name} back"
    # Starting the server blocks the event loop: a request stamped while it was down but not yet
    # sent would go out once it is up, and be served, counted as an answer of the outage.
    await load.answered(f"{name} down")
    server.start()
    return await load.until_ok(kind)


async def _mails_arrived(messages: Sized, count: int) -> float:
    began = time.monotonic()
    for _ in range(200):
        if len(messages) >= count:
            break
        await asyncio.sleep(0.1)
    return time.monotonic() - began


@pytest.fixture
def load_database(own_postgres: OwnPostgres) -> Iterator[sa.Engine]:
    """A database of its own in the test's cluster, migrated, with alice."""
    admin = f"postgresql://postgres@127.0.0.1:{own_postgres.port}/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS faults_under_load")
        connection.execute("CREATE DATABASE faults_under_load")
    engine = create_db_engine(own_postgres.url.rsplit("/", 1)[0] + "/faults_under_load")
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def provider_on_loopback(load_database: sa.Engine) -> Iterator[str]:
    """The provider under a real Uvicorn server on a spare loopback port."""
    parent = FastAPI()
    parent.mount("/provider", create_app(load_database))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(parent, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the provider did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/provider"
    server.should_exit = True
    thread.join(10)


async def test_postgresql_then_redis_then_smtp_stop_under_load_and_all_recover(
    own_postgres: OwnPostgres,
    own_redis: RedisServer,
    load_database: sa.Engine,
    provider_on_loopback: str,
) -> None:
    alice = _alice(load_database)
    own_redis.start()
    smtp_port = free_port()
    load = Load(provider_on_loopback, alice.id, SessionStore(Settings(redis_url=own_redis.url)))
    with overridden(smtp_url=f"smtp://127.0.0.1:{smtp_port}", mail_retry_seconds=1):
        delivery = asyncio.create_task(run_delivery_loop(load_database, interval=0.5))
        tasks = [asyncio.create_task(work()) for work in (load.read, load.write, load.sessions)]
        try:
            with smtp_server(port=smtp_port) as (before_outage, _):
                # The outage begins once the reader and the writer are logged in and served: a
                # login it caught (argon2id takes a second or more on a slow, busy machine)
                # would end that task before the test began.
                for kind in ("read", "write"):
                    assert await load.until_ok(kind) < RECOVERY_SECONDS, kind
                postgres_recovery = await _outage(load, "postgres", own_postgres, "read")
                assert await load.until_ok("write") < RECOVERY_SECONDS
                redis_recovery = await _outage(load, "redis", own_redis, "session")
            load.phase = "smtp down"
            async with load.client() as anonymous:
                for _ in range(3):  # the reset limit per account
                    sent = load.stamp()
                    response = await anonymous.post("/reset", json={"email": alice.email})
                    load.keep("reset", sent, response)
            await asyncio.sleep(1.5)
            load.phase = "smtp back"
            with smtp_server(port=smtp_port) as (after_outage, _):
                smtp_recovery = await _mails_arrived(after_outage.messages, 3)
        finally:
            load.running = False
            delivery.cancel()
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    assert before_outage.messages == []

    # Never a 500, never a hang, whatever was down.
    errors = [a for a in load.answers if a.status >= 500 and a.status != 503]
    assert not errors, errors
    assert max(a.seconds for a in load.answers) < ANSWER_SECONDS

    # PostgreSQL down: each request answered at once, a translated 503 and nothing else.
    down = load.of("postgres down", "read") + load.of("postgres down", "write")
    assert len(down) >= 10
    # Only the answers that break the rule are shown: pytest cuts a long list before them.
    unexpected = [a for a in down if a.status != 503 or a.detail != UNAVAILABLE_FR]
    assert not unexpected, unexpected
    assert postgres_recovery < RECOVERY_SECONDS
    # No write half-applied: each change is stored with its audit line, in one transaction.
    # A write that answered 503 left neither, except the one the stop may have caught after
    # its commit (its answer was lost, not its data).
    writes = [a for a in load.answers if a.kind == "write"]
    written = [a for a in writes if a.ok]
    with Session(load_database) as db:
        audited = db.exec(
            select(func.count()).select_from(AuditLog).where(AuditLog.action == "user_updated")
        ).one()
        lastname = db.get_one(User, alice.id).lastname
    assert len(written) <= audited <= len(written) + 1
    assert lastname == written[-1].value

    # Redis down: the provider serves on; the session store fails fast, then works again.
    assert all(a.ok for a in load.of("redis down", "read") + load.of("redis down", "write"))
    failed = load.of("redis down", "session")
    assert failed
    assert all(a.detail == "ConnectionError" for a in failed if not a.ok)
    assert redis_recovery < RECOVERY_SECONDS

    # SMTP down: the resets were answered as usual; the mails left once it was back.
    resets = load.of("smtp down", "reset")
    assert [a.status for a in resets] == [204, 204, 204]
    assert len(after_outage.messages) == 3
    assert smtp_recovery < 15
    assert all(recipients == [alice.email] for recipients, _ in after_outage.messages)
