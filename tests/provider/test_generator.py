"""The scale data generator (``bench.generate``) at a tiny scale, in a PostgreSQL database of its
own: the provider tests' database is never touched. On that data set, every endpoint of the
benchmark keeps to the round trips it declares (issue 11's guard rail: no timing, a count)."""

import os
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import httpx
import psycopg
import pytest
import sqlalchemy as sa
from psycopg import sql
from sqlmodel import Session, select

from bench.generate import NotPostgreSQL, Plan, generate
from bench.generate.loader import plain_url
from bench.generate.plan import HEAVY_TENANT
from bench.run.bodies import login_body, request_body
from bench.run.database import capture
from bench.run.endpoints import ENDPOINTS, PLACEHOLDERS, Endpoint
from portal.provider.demo_data.people import DEMO_PASSWORD, PEOPLE
from portal.provider.main import create_app
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import Service, User, fold
from portal.provider.platform.models.search import service_search_text

_URL = os.environ.get("DATABASE_URL", "")
needs_postgresql = pytest.mark.skipif(
    not _URL.startswith(("postgresql", "postgres:")),
    reason="the generator loads PostgreSQL through COPY: set DATABASE_URL=postgresql://…",
)
PLAN = Plan(scale=0.005, anchor=date(2026, 1, 15))
_FOREIGN_KEYS = """
SELECT child.relname, child_column.attname, parent.relname, parent_column.attname
FROM pg_constraint c
JOIN pg_class child ON child.oid = c.conrelid
JOIN pg_class parent ON parent.oid = c.confrelid
JOIN pg_attribute child_column ON child_column.attrelid = c.conrelid
    AND child_column.attnum = c.conkey[1]
JOIN pg_attribute parent_column ON parent_column.attrelid = c.confrelid
    AND parent_column.attnum = c.confkey[1]
WHERE c.contype = 'f' AND cardinality(c.conkey) = 1
ORDER BY 1, 2
"""
# A fingerprint of what other data and tests refer to: references and ids, in order.
_FINGERPRINT = """
SELECT md5(string_agg(reference || id::text, ',' ORDER BY reference)) FROM {}
"""


@pytest.fixture(scope="module", autouse=True)
def empty_tables() -> None:
    """Replaces the provider tests' fixture of that name: this module never opens their
    database, so there is nothing of theirs to empty."""


def _server_url(database: str) -> str:
    return psycopg.conninfo.make_conninfo(plain_url(_URL), dbname=database)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A temporary database ``bench_test_<pid>`` with the plan's data set, dropped afterwards."""
    name = f"bench_test_{os.getpid()}"
    with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = psycopg.conninfo.conninfo_to_dict(_server_url(name))
    database_url = (
        f"postgresql://{url.get('user', 'postgres')}@{url.get('host', '127.0.0.1')}:"
        f"{url.get('port', 5432)}/{name}"
    )
    if url.get("password"):
        database_url = database_url.replace("@", f":{url['password']}@", 1)
    generate(database_url, PLAN, data_dir=tmp_path_factory.mktemp("data"), log=lambda _: None)
    yield database_url
    with psycopg.connect(_server_url("postgres"), autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


@pytest.fixture(scope="module")
def bench_engine(database: str) -> Iterator[sa.Engine]:
    engine = create_db_engine(plain_url(database).replace("postgresql://", "postgresql+psycopg://"))
    yield engine
    engine.dispose()


def _scalar(engine: sa.Engine, query: str, **params: object) -> object:
    with engine.connect() as connection:
        return connection.execute(sa.text(query), params).scalar_one()


@needs_postgresql
def test_counts_follow_the_scale_formula(bench_engine: sa.Engine) -> None:
    expected = PLAN.exact_counts()
    counted = {
        table: _scalar(bench_engine, f'SELECT count(*) FROM "{table}"') for table in expected
    }
    assert counted == expected
    # The schema keeps 48 hours of samples, 31 days of hours and a year of days.
    assert expected["sensor_samples"] == PLAN.sampled_sensors * 576
    assert expected["sensor_rollups"] == PLAN.sampled_sensors * (744 + 365)
    for table in ("endpoints", "service_attributes", "invoice_lines", "maintenance_services"):
        assert _scalar(bench_engine, f"SELECT count(*) FROM {table}") > 0, table


@needs_postgresql
def test_the_roll_ups_sum_up_the_samples_as_the_job_does(bench_engine: sa.Engine) -> None:
    """The last two days are held both raw and rolled up: each day's and hour's roll-up is the
    minimum, maximum, sum and count of its samples."""
    for resolution in ("hour", "day"):
        mismatches = _scalar(
            bench_engine,
            f"""
            SELECT count(*) FROM (
                SELECT sensor_id, date_trunc('{resolution}', at, 'UTC') AS period,
                       min(value) AS low, max(value) AS high, sum(value) AS total,
                       count(*) AS n
                FROM sensor_samples GROUP BY 1, 2
            ) raw JOIN sensor_rollups r
              ON r.sensor_id = raw.sensor_id AND r.at = raw.period
             AND r.resolution = '{resolution}'
            WHERE r.minimum <> raw.low OR r.maximum <> raw.high OR r.count <> raw.n
               OR abs(r.total - raw.total) > 1e-6 * greatest(abs(raw.total), 1)
            """,
        )
        assert mismatches == 0, resolution
        joined = _scalar(
            bench_engine,
            f"SELECT count(*) FROM sensor_rollups r WHERE resolution = '{resolution}' AND "
            "EXISTS (SELECT 1 FROM sensor_samples s WHERE s.sensor_id = r.sensor_id "
            f"AND date_trunc('{resolution}', s.at, 'UTC') = r.at)",
        )
        assert joined > 0, resolution


@needs_postgresql
def test_every_foreign_key_resolves(bench_engine: sa.Engine) -> None:
    with bench_engine.connect() as connection:
        foreign_keys = connection.execute(sa.text(_FOREIGN_KEYS)).all()
        assert len(foreign_keys) > 20
        for child, column, parent, parent_column in foreign_keys:
            dangling = connection.execute(
                sa.text(
                    f'SELECT count(*) FROM "{child}" c WHERE c."{column}" IS NOT NULL AND NOT '
                    f'EXISTS (SELECT 1 FROM "{parent}" p WHERE p."{parent_column}" = c."{column}")'
                )
            ).scalar_one()
            assert dangling == 0, f"{child}.{column} → {parent}.{parent_column}"


@needs_postgresql
def test_every_company_has_users_and_services_belong_to_customers(bench_engine: sa.Engine) -> None:
    without_users = (
        "SELECT count(*) FROM companies c"
        " WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.company_id = c.id)"
    )
    assert _scalar(bench_engine, without_users) == 0
    staff_services = (
        "SELECT count(*) FROM services s JOIN companies c ON c.id = s.company_id"
        " WHERE c.reference = 'C-0001'"
    )
    assert _scalar(bench_engine, staff_services) == 0


@needs_postgresql
def test_the_heavy_tenant_owns_its_share(bench_engine: sa.Engine) -> None:
    for table, name in (("invoices", "invoices"), ("services", "services"), ("tickets", "tickets")):
        owned = _scalar(
            bench_engine,
            f"SELECT count(*) FROM {table} t JOIN companies c ON c.id = t.company_id "
            "WHERE c.name = :name",
            name=HEAVY_TENANT,
        )
        assert owned == PLAN.heavy(name)


@needs_postgresql
def test_derived_columns_are_the_providers_own(bench_engine: sa.Engine) -> None:
    with Session(bench_engine) as session:
        services = session.exec(select(Service).order_by(Service.reference).limit(50)).all()
        for service in services:
            assert service.search_text == service_search_text(session, service)
        for user in session.exec(select(User).limit(50)).all():
            assert user.search_name == fold(f"{user.firstname} {user.lastname}")
            assert user.email == user.email.lower()


@needs_postgresql
async def test_the_demo_accounts_log_in(bench_engine: sa.Engine) -> None:
    transport = httpx.ASGITransport(create_app(bench_engine))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        for person in PEOPLE:
            if person.demo_description and person.has_accepted_terms:
                body = {"username": person.email, "password": DEMO_PASSWORD}
                response = await client.post("/login", json=body)
                assert response.status_code == 204, (person.email, response.text)
        alice = {"username": "alice@acme-networks.test", "password": DEMO_PASSWORD}
        assert (await client.post("/login", json=alice)).status_code == 204
        users = await client.get("/api/users", params={"itemsPerPage": 1})
        assert users.status_code == 200
        # Her companies' demo colleagues and the heavy tenant's generated users.
        assert users.json()["hydra:totalItems"] >= PLAN.heavy("users")


@needs_postgresql
def test_two_runs_give_the_same_rows(
    database: str, bench_engine: sa.Engine, tmp_path: Path
) -> None:
    tables = ("companies", "users", "services", "invoices", "tickets", "maintenances", "sensors")
    before = {table: _scalar(bench_engine, _FINGERPRINT.format(table)) for table in tables}
    samples = "SELECT md5(string_agg(id::text || value::text, ',' ORDER BY id)) FROM sensor_samples"
    samples_before = _scalar(bench_engine, samples)
    generate(database, PLAN, data_dir=tmp_path, log=lambda _: None)
    assert {table: _scalar(bench_engine, _FINGERPRINT.format(table)) for table in tables} == before
    assert _scalar(bench_engine, samples) == samples_before


def test_sqlite_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NotPostgreSQL, match="PostgreSQL"):
        generate(f"sqlite:///{tmp_path / 'x.db'}", PLAN, data_dir=tmp_path)


@pytest.fixture(scope="module")
def placeholders(database: str) -> dict[str, str]:
    with psycopg.connect(plain_url(database)) as connection:
        values = {}
        for name, query in PLACEHOLDERS.items():
            row = connection.execute(query).fetchone()
            values[name] = str(row[0]) if row and row[0] is not None else ""
        return values


@needs_postgresql
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda endpoint: endpoint.name)
def test_each_benchmarked_endpoint_keeps_to_its_round_trip_budget(
    endpoint: Endpoint, database: str, bench_engine: sa.Engine, placeholders: dict[str, str]
) -> None:
    body = request_body(endpoint.body, endpoint.user, plain_url(database))
    path = endpoint.path.format(**placeholders)
    captured = capture(
        bench_engine,
        path,
        login_body(endpoint.user),
        endpoint.method,
        body,
        endpoint.token,
        endpoint.revalidate,
    )
    listing = "\n".join(statement for statement, _ in captured.statements)
    assert captured.round_trips <= endpoint.round_trips, (
        f"{endpoint.name}: {captured.round_trips} round trips:\n{listing}"
    )
