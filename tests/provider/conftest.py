"""Provider tests through HTTP, against the app mounted at ``/provider`` as in production.

One database per test session: a temporary SQLite file, or the PostgreSQL database of
``DATABASE_URL`` (its provider tables are dropped, migrated afresh, and dropped again at the end).
Every module starts from empty tables and builds its own data through the models.
"""

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from psycopg import sql
from sqlmodel import Session

from portal.permissions import Role, is_staff
from portal.provider.accounts import passwords
from portal.provider.accounts.passwords import hash_password
from portal.provider.main import ProviderMount, create_app
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import Company, Job, RateLimitCounter, User, metadata
from portal.settings import Settings, get_settings

PASSWORD = "Correct-Horse-42"
# Redis's default number of databases.
REDIS_DATABASES = 16
BASE_URL = "http://testserver/provider"


def _database_url(tmp_dir: Path) -> str:
    configured = os.environ.get("DATABASE_URL")
    if not configured:
        return f"sqlite:///{tmp_dir / 'provider.db'}"
    url = sa.make_url(Settings(database_url=configured).sqlalchemy_url)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or url.get_backend_name() != "postgresql":
        return url.render_as_string(hide_password=False)
    # Tests spread over xdist workers (make test does): each worker gets a database of its
    # own on the same server, named after the configured one.
    own = url.set(database=f"{url.database}_{worker}")
    admin = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as server:
        exists = server.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (own.database,)
        ).fetchone()
        if not exists:
            server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(own.database)))
    return own.render_as_string(hide_password=False)


def _drop_everything(engine: sa.Engine) -> None:
    metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))


@pytest.fixture(scope="session")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sa.Engine]:
    engine = create_db_engine(_database_url(tmp_path_factory.mktemp("db")))
    _drop_everything(engine)
    migrate(engine)
    yield engine
    _drop_everything(engine)
    engine.dispose()


@pytest.fixture(scope="session", autouse=True)
def mail_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Mail of every provider test goes to ``.eml`` files in a temporary directory, never to
    the project's ``data/mail`` nor to a configured SMTP server."""
    directory = tmp_path_factory.mktemp("mail")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MAIL_DIR", str(directory))
        patch.setenv("SMTP_URL", "")
        get_settings.cache_clear()
        yield directory
    get_settings.cache_clear()


@pytest.fixture(scope="session", autouse=True)
def own_redis_database() -> Iterator[None]:
    """With ``REDIS_URL`` and xdist, each worker uses a Redis database of its own, the configured
    one's number plus the worker's, as it has a PostgreSQL database of its own: a commit in one
    worker's test raises the feeds' shared time of last change (``feed_cache``), which would
    change the validator another worker's test is reading twice."""
    configured = os.environ.get("REDIS_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not configured or not worker:
        yield
        return
    parts = urlsplit(configured)
    number = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
    if number >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"{configured} leaves worker {worker} no Redis database of its own (database "
            f"{number}; Redis has {REDIS_DATABASES}): name a lower database or use fewer workers"
        )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REDIS_URL", urlunsplit(parts._replace(path=f"/{number}")))
        get_settings.cache_clear()
        yield
    get_settings.cache_clear()


@pytest.fixture(scope="module", autouse=True)
def empty_tables(engine: sa.Engine) -> Iterator[None]:
    yield
    with engine.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            connection.execute(table.delete())


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashes() -> Iterator[None]:
    """argon2id with its smallest work factors, as ENVIRONMENT=test gives the browser tests'
    portal: these tests hash and verify passwords over a thousand times, at 0.12 s of CPU each
    with the production parameters, through the same code."""
    production = passwords._hasher
    passwords._hasher = passwords.TEST_HASHER
    passwords._dummy_hash.cache_clear()
    yield
    passwords._hasher = production
    passwords._dummy_hash.cache_clear()


@pytest.fixture(scope="session")
def password_hash(quick_password_hashes: None) -> str:
    return hash_password(PASSWORD)


@dataclass
class World:
    """The companies and users of a module, by short name."""

    engine: sa.Engine
    password_hash: str
    companies: dict[str, uuid.UUID] = field(default_factory=dict)
    users: dict[str, uuid.UUID] = field(default_factory=dict)

    def add_company(self, key: str, name: str) -> uuid.UUID:
        with Session(self.engine) as session:
            company = Company(name=name)
            session.add(company)
            session.commit()
            self.companies[key] = company.id
        return self.companies[key]

    def add_user(
        self,
        key: str,
        company: str,
        *,
        roles: tuple[str, ...] = (),
        auxiliary: tuple[str, ...] = (),
        **fields: Any,
    ) -> uuid.UUID:
        with Session(self.engine) as session:
            user = User(
                firstname=fields.pop("firstname", key.capitalize()),
                lastname=fields.pop("lastname", "Test"),
                # Staff roles count only on an e-mail of the staff domain.
                email=fields.pop(
                    "email", f"{key}@{'patchbay' if is_staff(roles) else 'example'}.test"
                ),
                company_id=self.companies[company],
                roles=list(roles),
                password_hash=self.password_hash,
                has_accepted_terms=fields.pop("has_accepted_terms", True),
                **fields,
            )
            user.auxiliary_companies = [
                session.get_one(Company, self.companies[name]) for name in auxiliary
            ]
            session.add(user)
            session.commit()
            self.users[key] = user.id
        return self.users[key]

    def email(self, key: str) -> str:
        with Session(self.engine) as session:
            return session.get_one(User, self.users[key]).email


@pytest.fixture(scope="module")
def world(engine: sa.Engine, password_hash: str) -> World:
    """Staff, two customer companies (one with an auxiliary company) and their users."""
    world = World(engine, password_hash)
    world.add_company("staff", "Patchbay")
    world.add_company("acme", "Acme Networks")
    world.add_company("benelux", "Acme Networks Benelux")
    world.add_company("globex", "Globex")
    world.add_user("admin", "staff", roles=(Role.ADMIN,), email="admin@patchbay.test")
    world.add_user("support", "staff", roles=(Role.SPH_READ_ONLY,), lastname="Moreau")
    world.add_user(
        "alice",
        "acme",
        roles=(Role.MANAGE_USERS, Role.ACCESS_INVOICES),
        auxiliary=("benelux",),
        firstname="Alice",
        lastname="Martin",
        email="alice@acme-networks.test",
        phone_number="+33 1 99 00 21 01",
    )
    world.add_user(
        "bob", "acme", roles=(Role.ACCESS_MONITORING,), firstname="Bob", lastname="Durand"
    )
    world.add_user(
        "helene",
        "acme",
        roles=(Role.ACCESS_MONITORING,),
        firstname="Hélène",
        lastname="Élan",
        job=Job.CEO,
    )
    world.add_user("bram", "benelux", roles=(Role.ACCESS_INVOICES,), firstname="Bram")
    world.add_user("claire", "globex", roles=(Role.MANAGE_USERS,), firstname="Claire")
    world.add_user("newbie", "acme", roles=(Role.ACCESS_MONITORING,), has_accepted_terms=False)
    world.add_user("gone", "acme", roles=(Role.ACCESS_MONITORING,), is_active=False)
    return world


@pytest.fixture(scope="session")
def app(engine: sa.Engine) -> FastAPI:
    """The provider mounted under a parent application at ``/provider`` (``ProviderMount``:
    every path under the prefix reaches the provider). The portal hands the mount's requests
    to the provider before its own stack (``portal.provider_first``, its own tests)."""
    parent = FastAPI()
    parent.router.routes.append(ProviderMount("/provider", create_app(engine)))
    return parent


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=BASE_URL) as client:
        yield client


SignIn = Callable[..., Awaitable[httpx.Response]]


@pytest.fixture
def sign_in(client: httpx.AsyncClient, world: World) -> SignIn:
    """Log ``client`` in as a user of the world, by key (``await sign_in("alice")``)."""

    async def sign_in(key: str, password: str = PASSWORD) -> httpx.Response:
        body = {"username": world.email(key), "password": password}
        response = await client.post("/login", json=body)
        assert response.status_code == 204, response.text
        return response

    return sign_in


@pytest.fixture
def fresh_rate_limits(engine: sa.Engine) -> None:
    """Every rate-limit window starts afresh: a module whose tests write as one user a few times
    each (30 ticket messages a minute) would otherwise fail on the test that happens to be
    counted the 31st. ``pytestmark = pytest.mark.usefixtures("fresh_rate_limits")``."""
    with engine.begin() as connection:
        connection.execute(sa.delete(RateLimitCounter))
