"""Measure the services endpoints at scale: ``python scripts/services_latency.py DATABASE_URL``.

Fills the (PostgreSQL) database with 2 000 companies and 200 000 services (``--services``),
each with endpoints, attributes and a document, one heavy tenant holding 7.5 % of them; then
times the list, its filters and search, and one service, through the provider application in
this process (median of ``--runs`` calls each), and streams an export of every service while
watching the memory. The database is emptied first: give it one of its own. ``--keep``
measures the data already there.
"""

import argparse
import json
import random
import statistics
import time
import tracemalloc
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.db import create_db_engine
from portal.provider.demo_data.catalogue import RATES, SERVICE_LEVELS, SERVICE_TYPES
from portal.provider.main import create_app
from portal.provider.migrate import migrate
from portal.provider.models import Company, ServiceType, User, metadata
from portal.provider.models.search import compose_service_search_text
from portal.provider.passwords import hash_password
from portal.settings import Settings

PASSWORD = "Bench-password-2026"
CREATED = "2026-01-01 00:00:00+00"
CITIES = ("Paris", "Lyon", "Marseille", "Lille", "Nantes", "Bordeaux", "Genève", "Bruxelles")
SITES = ("Équinix PA2", "Telehouse 2", "Interxion PAR7", "Data4", "Global Switch", "Site client")
STATUSES = ("active",) * 6 + ("under_construction", "under_termination", "terminated", "terminated")
USERS = {"heavy": "heavy@bench.test", "typical": "typical@bench.test", "staff": "admin@bench.test"}
COLUMNS = {
    "endpoints": ("id", "name", "number", "street", "postal_code", "city", "country"),
    "services": (
        "id", "reference", "company_id", "type_id", "status", "date_start", "client_references",
        "search_text", "endpoint_a_id", "endpoint_b_id", "order_reference", "created_at",
    ),
    "service_attributes": ("id", "service_id", "name", "value", "group_name", "constrained"),
    "service_documents": ("id", "service_id", "kind", "name", "file_path", "content_type"),
}  # fmt: skip


@dataclass
class Rows:
    """The rows of each table, in ``COLUMNS`` order."""

    tables: dict[str, list[tuple[Any, ...]]] = field(
        default_factory=lambda: {table: [] for table in COLUMNS}
    )

    def add(self, table: str, *values: Any) -> None:
        self.tables[table].append(values)


def _copy(connection: sa.Connection, table: str, rows: list[tuple[Any, ...]]) -> None:
    raw = connection.connection.driver_connection
    assert raw is not None
    statement = f"COPY {table} ({', '.join(COLUMNS[table])}) FROM STDIN"
    with raw.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def _accounts(engine: sa.Engine, companies: int) -> tuple[list[uuid.UUID], list[ServiceType]]:
    password_hash = hash_password(PASSWORD)
    with Session(engine) as session:
        company_rows = [Company(name=f"Customer {number:04d}") for number in range(companies)]
        types = [
            ServiceType(key=entry.key, label_en=entry.label_en, label_fr=entry.label_fr)
            for entry in SERVICE_TYPES
        ]
        session.add_all([*company_rows, *types])
        session.flush()
        roles = {"heavy": Role.MANAGE_USERS, "typical": Role.ACCESS_INVOICES, "staff": Role.ADMIN}
        for index, (who, email) in enumerate(USERS.items()):
            session.add(
                User(
                    firstname="Bench",
                    lastname=who,
                    email=email,
                    company_id=company_rows[index].id,
                    roles=[roles[who]],
                    password_hash=password_hash,
                    has_accepted_terms=True,
                )
            )
        session.commit()
        return [company.id for company in company_rows], types


def _service(rows: Rows, rng: random.Random, number: int, company_id: uuid.UUID, kind: Any) -> None:
    ends = []
    for _ in range(rng.choice((1, 2))):
        place = (
            rng.choice(SITES),
            "rue de la Paix",
            f"{rng.randint(10, 95)}000",
            rng.choice(CITIES),
        )
        ends.append(uuid.uuid4())
        rows.add("endpoints", ends[-1], place[0], str(rng.randint(1, 99)), *place[1:], "France")
    # Name, street, postal code and city: the endpoint words of the search text.
    words = [row[i] for row in rows.tables["endpoints"][-len(ends) :] for i in (1, 3, 4, 5)]
    reference = f"PB-SVC-{number:07d}"
    client_references = [f"CR-{rng.randint(1, 99999):05d}"] if rng.random() < 0.5 else []
    status = rng.choice(STATUSES)
    started = None
    if status != "under_construction":
        started = f"20{rng.randint(15, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    search = compose_service_search_text(
        reference, client_references, [kind.label_en, kind.label_fr], words
    )
    service_id = uuid.uuid4()
    endpoint_b = ends[1] if len(ends) > 1 else None
    rows.add(
        "services", service_id, reference, company_id, kind.id, status, started,
        json.dumps(client_references), search, ends[0], endpoint_b, f"BC-{number}", CREATED,
    )  # fmt: skip
    for name, value, group in (
        ("rate", rng.choice(RATES), "characteristics"),
        ("serviceLevel", rng.choice(SERVICE_LEVELS), "characteristics"),
        ("rack", "B07", "deliveryPointA"),
    ):
        rows.add("service_attributes", uuid.uuid4(), service_id, name, value, group, False)
    path = "documents/demo/handover-report.pdf"
    name = f"handover-{reference}.pdf"
    rows.add(
        "service_documents", uuid.uuid4(), service_id, "handover", name, path, "application/pdf"
    )


def fill(engine: sa.Engine, companies: int, services: int) -> None:
    metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    migrate(engine)
    company_ids, types = _accounts(engine, companies)
    rng = random.Random(2026)
    rows = Rows()
    heavy = int(services * 0.075)
    for number in range(services):
        company_id = company_ids[0] if number < heavy else rng.choice(company_ids[1:])
        _service(rows, rng, number, company_id, rng.choice(types))
    with engine.begin() as connection:
        for table, table_rows in rows.tables.items():
            _copy(connection, table, table_rows)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(sa.text("VACUUM ANALYZE"))


def _median_ms(call: Callable[[], object], runs: int) -> float:
    call()  # warm up
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def _timed_get(
    client: TestClient, path: str, params: Sequence[tuple[str, str]]
) -> Callable[[], None]:
    def call() -> None:
        response = client.get(path, params=params)
        assert response.status_code == 200, response.text

    return call


def measure(engine: sa.Engine, runs: int) -> None:
    client = TestClient(create_app(engine), base_url="http://bench/")
    includes = [("includes[]", "order"), ("includes[]", "company"), ("includes[]", "type")]
    page = [("itemsPerPage", "12"), *includes]
    cases = {
        "list, newest first": [*page, ("order[dateStart]", "desc")],
        "list, status filter": [*page, ("status[]", "active"), ("status[]", "terminated")],
        "list, search 'paris'": [*page, ("search", "paris")],
        "list, search 'cr-0424'": [*page, ("search", "cr-0424")],
        "list, page 50": [*page, ("page", "50")],
    }
    print(f"{'who':8} {'case':28} median ms ({runs} calls)")
    for who, email in USERS.items():
        response = client.post("/login", json={"username": email, "password": PASSWORD})
        assert response.status_code == 204, response.text
        for name, params in cases.items():
            median = _median_ms(_timed_get(client, "/api/services", params), runs)
            print(f"{who:8} {name:28} {median:7.1f}")
        first = client.get("/api/services", params=page).json()["hydra:member"][0]["id"]
        detail = _median_ms(_timed_get(client, f"/api/services/{first}", includes), runs)
        print(f"{who:8} {'detail':28} {detail:7.1f}")
    tracemalloc.start()
    started, size = time.perf_counter(), 0
    with client.stream("GET", "/api/services/export") as response:
        for chunk in response.iter_bytes():
            size += len(chunk)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    elapsed = time.perf_counter() - started
    print(
        f"export, every service: {size / 1e6:.1f} MB in {elapsed:.1f} s, peak {peak / 1e6:.1f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("database_url")
    parser.add_argument("--services", type=int, default=200_000)
    parser.add_argument("--companies", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="measure the data already there")
    arguments = parser.parse_args()
    engine = create_db_engine(Settings(database_url=arguments.database_url).sqlalchemy_url)
    if not arguments.keep:
        started = time.perf_counter()
        fill(engine, arguments.companies, arguments.services)
        print(f"filled in {time.perf_counter() - started:.0f} s")
    measure(engine, arguments.runs)


if __name__ == "__main__":
    main()
