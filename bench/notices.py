"""The maintenance notices at scale (issue 50, item 6): one maintenance touching 5 000 services
of 800 companies, sent through the integration API, queues every notice in the batch's one
transaction; then the outbox writes and sends them all to an SMTP test server (aiosmtpd).

    python -m bench.notices [--database-url URL] [--companies 800] [--services 5000]

prints one line: the batch's time, the notices it queued, and the delivery rate. Without
``--database-url`` it runs on a temporary SQLite file; a PostgreSQL database given is emptied
first (its provider tables dropped and migrated afresh). ``tests/provider/test_notices_scale.py``
runs the same estate in the test suite.
"""

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.integration.kinds import SCOPES
from portal.provider.main import create_app
from portal.provider.migrate import migrate
from portal.provider.platform.api_tokens import issue_token
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.mail.notices import send_due_notices
from portal.provider.platform.mail.outbox import deliver_due
from portal.provider.platform.models import (
    Company,
    MaintenanceNotice,
    Service,
    ServiceStatus,
    ServiceType,
    User,
    metadata,
    utcnow,
)
from portal.settings import get_settings

USERS_PER_COMPANY = 3


@dataclass(frozen=True)
class Estate:
    token: str
    services: list[str]


def build_estate(engine: sa.Engine, companies: int, services: int) -> Estate:
    """``companies`` customers of ``USERS_PER_COMPANY`` users each, ``services`` spread over
    them, and an administrator's API token; written in bulk."""
    type_id = uuid.uuid4()
    company_rows: list[dict[str, Any]] = [
        {"id": uuid.uuid4(), "reference": f"C-{n:05}", "name": f"Customer {n:05}"}
        for n in range(companies)
    ]
    now = utcnow()
    with Session(engine) as db:
        staff = Company(name="Patchbay")
        admin = User(
            firstname="Bench",
            lastname="Admin",
            email="bench-admin@patchbay.test",
            company_id=staff.id,
            roles=[Role.ADMIN],
        )
        db.add_all([staff, admin])
        db.add(
            ServiceType(id=type_id, key="ip_transit", label_en="IP transit", label_fr="Transit IP")
        )
        db.flush()
        db.execute(sa.insert(Company), [{**row, "created_at": now} for row in company_rows])
        db.execute(
            sa.insert(User),
            [
                {
                    "id": uuid.uuid4(),
                    "firstname": f"User{n}",
                    "lastname": company["name"],
                    "email": f"user{n}@{company['reference'].lower()}.test",
                    "company_id": company["id"],
                    "roles": [Role.ACCESS_MONITORING],
                    "language": "fr" if n % 2 else "en",
                    "time_zone": "Europe/Paris",
                    "created_at": now,
                }
                for company in company_rows
                for n in range(USERS_PER_COMPANY)
            ],
        )
        references = [f"PB-{n:06}" for n in range(services)]
        db.execute(
            sa.insert(Service),
            [
                {
                    "id": uuid.uuid4(),
                    "reference": reference,
                    "company_id": company_rows[n % companies]["id"],
                    "type_id": type_id,
                    "status": ServiceStatus.ACTIVE,
                    "client_references": [f"CLIENT-{n}"] if n % 3 == 0 else [],
                }
                for n, reference in enumerate(references)
            ],
        )
        _, token = issue_token(db, admin, "bench", SCOPES)
        db.commit()
    return Estate(token, references)


def maintenance(services: list[str], start: datetime) -> dict[str, object]:
    return {
        "reference": "MNT-BENCH-1",
        "name": "Core router software upgrade",
        "type": "preventive",
        "classification": "outage",
        "status": "scheduled",
        "dateStart": start.isoformat(),
        "dateEnd": (start + timedelta(hours=4)).isoformat(),
        "services": services,
    }


async def put_maintenance(engine: sa.Engine, estate: Estate) -> float:
    """Send the maintenance through the integration API; the seconds its batch took."""
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(days=14)
    transport = httpx.ASGITransport(create_app(engine))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        began = time.perf_counter()
        response = await client.put(
            "/api/integration/maintenances",
            json=[maintenance(estate.services, start)],
            headers={"Authorization": f"Bearer {estate.token}"},
            timeout=120,
        )
        elapsed = time.perf_counter() - began
    response.raise_for_status()
    return elapsed


def queued(engine: sa.Engine) -> int:
    with Session(engine) as db:
        return db.scalar(sa.select(sa.func.count()).select_from(MaintenanceNotice)) or 0


def deliver(engine: sa.Engine) -> tuple[int, float]:
    """Write every due notice and send it; how many were sent, and in how many seconds."""
    later = utcnow() + timedelta(seconds=get_settings().maintenance_notice_delay_seconds + 1)
    began = time.perf_counter()
    written = send_due_notices(engine, now=later)
    wait_for_deliveries(timeout=600)
    deliver_due(engine)
    return written, time.perf_counter() - began


def reset(engine: sa.Engine) -> None:
    metadata.drop_all(engine)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    migrate(engine)


def main() -> None:
    from aiosmtpd.controller import Controller

    from tests.ports import free_port
    from tests.provider.mailbox import Sink

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="")
    parser.add_argument("--companies", type=int, default=800)
    parser.add_argument("--services", type=int, default=5_000)
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="bench-notices-"))
    url = args.database_url or f"sqlite:///{directory / 'provider.db'}"
    port = free_port()
    os.environ.update(SMTP_URL=f"smtp://127.0.0.1:{port}", DATA_DIR=str(directory))
    get_settings.cache_clear()
    engine = create_db_engine(url)
    reset(engine)
    estate = build_estate(engine, args.companies, args.services)
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        batch = asyncio.run(put_maintenance(engine, estate))
        notices = queued(engine)
        written, seconds = deliver(engine)
    finally:
        controller.stop()
    print(
        f"notices: {engine.dialect.name}, 1 maintenance, {args.services} services of "
        f"{args.companies} companies: batch {batch:.2f} s, {notices} notices queued; "
        f"{written} written and {len(sink.messages)} received by SMTP in {seconds:.1f} s "
        f"({len(sink.messages) / seconds:.0f} mails/s)"
    )


if __name__ == "__main__":
    main()
