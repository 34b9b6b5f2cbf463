"""Issue 50, item 6: a maintenance touching 5 000 services of 800 companies queues the notices
of all their users in the integration batch's one transaction, in seconds (the benchmark line
``python -m bench.notices`` measures it and the delivery rate)."""

import asyncio
import time

import sqlalchemy as sa
from sqlmodel import Session, select

from bench.notices import USERS_PER_COMPANY, build_estate, put_maintenance
from portal.provider.platform.models import MaintenanceNotice


def test_a_maintenance_of_5000_services_queues_every_notice_at_once(engine: sa.Engine) -> None:
    estate = build_estate(engine, companies=800, services=5_000)
    began = time.perf_counter()
    batch = asyncio.run(put_maintenance(engine, estate))
    assert time.perf_counter() - began < 20, "the batch took more than seconds"
    assert batch < 20
    with Session(engine) as db:
        notices = db.exec(select(MaintenanceNotice)).all()
    assert len(notices) == 800 * USERS_PER_COMPANY
    # One per user, each about that user's company, all written by the batch's transaction.
    assert len({notice.user_id for notice in notices}) == len(notices)
    assert len({notice.created_at for notice in notices}) == 1
    assert len({notice.company_id for notice in notices}) == 800
