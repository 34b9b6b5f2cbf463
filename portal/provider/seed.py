"""Demo data of the embedded provider, seeded into an empty database outside production.

Companies, the demo accounts of DESIGN section 7 and more users, about a hundred services of every
type and status, invoices and credit notes, tickets (a few with a conversation), maintenances and
monitoring sensors with their time series, and the PDF documents they point to. The content is
fixed (a seeded random source, reproducible ids); only the dates follow the moment of seeding, or
the day of ``DEMO_ANCHOR_DATE``. The caller commits.
"""

import logging
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from portal.provider.accounts.passwords import hash_password
from portal.provider.billing.invoice_documents import clear_generated
from portal.provider.demo_data.build_accounts import build_accounts
from portal.provider.demo_data.build_billing import build_billing
from portal.provider.demo_data.build_conversations import build_conversations
from portal.provider.demo_data.build_maintenances import (
    build_maintenances,
    build_notice_addresses,
)
from portal.provider.demo_data.build_monitoring import build_monitoring
from portal.provider.demo_data.build_samples import build_samples
from portal.provider.demo_data.build_services import build_services
from portal.provider.demo_data.build_terminations import build_terminations
from portal.provider.demo_data.build_tickets import build_tickets
from portal.provider.demo_data.context import SeedContext, seeded_random
from portal.provider.demo_data.documents import write_demo_documents
from portal.provider.demo_data.people import DEMO_PASSWORD, PEOPLE
from portal.provider.platform.models import User, metadata, utcnow
from portal.settings import get_settings

logger = logging.getLogger(__name__)

RANDOM_SEED = 2026


def demo_logins() -> list[tuple[str, str, str]]:
    """The demo accounts as (e-mail, password, what the account shows), for ``make run``."""
    return [
        (person.email, DEMO_PASSWORD, person.demo_description)
        for person in PEOPLE
        if person.demo_description
    ]


def is_empty(session: Session) -> bool:
    return session.exec(select(User.id).limit(1)).first() is None


def seed_if_empty(session: Session, data_dir: Path | None = None) -> bool:
    """Seed the demo into a database without users; answers whether it did. Never in
    production, whatever the caller checked."""
    if get_settings().environment == "production" or not is_empty(session):
        return False
    started = time.perf_counter()
    seed_demo(session, data_dir)
    logger.info("Demo data seeded in %.1f s", time.perf_counter() - started)
    return True


def empty_every_table(session: Session) -> None:
    """Delete every row of the provider's tables in the session's transaction (the migration
    history stays): one ``TRUNCATE … CASCADE`` on PostgreSQL, children before parents else."""
    connection = session.connection()
    tables = metadata.sorted_tables
    if connection.dialect.name == "postgresql":
        names = ", ".join(connection.dialect.identifier_preparer.format_table(t) for t in tables)
        connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        return
    for table in reversed(tables):
        connection.execute(table.delete())


def reset_demo(session: Session, data_dir: Path | None = None) -> bool:
    """Empty every table and seed the demo again, in the session's transaction (the caller
    commits); answers whether it did. Never in production, whatever the caller checked."""
    if get_settings().environment == "production":
        return False
    started = time.perf_counter()
    empty_every_table(session)
    seed_demo(session, data_dir)
    logger.info("Demo data reset in %.1f s", time.perf_counter() - started)
    return True


def demo_now(now: datetime | None = None) -> datetime:
    """The moment the demo's dates follow: ``now`` if given, else noon UTC of the
    ``DEMO_ANCHOR_DATE`` setting, else the current time."""
    if now is not None:
        return now
    anchor = get_settings().demo_anchor_date
    if anchor is None:
        return utcnow()
    return datetime(anchor.year, anchor.month, anchor.day, 12, tzinfo=UTC)


def seed_demo(session: Session, data_dir: Path | None = None, now: datetime | None = None) -> None:
    """Add every demo row to ``session`` (flushed, not committed); documents go under
    ``data_dir``, by default the ``DATA_DIR`` setting where downloads look for them."""
    settings = get_settings()
    moment = demo_now(now).replace(second=0, microsecond=0)
    clear_generated(data_dir or settings.data_dir)
    context = SeedContext(
        session=session,
        rng=seeded_random(RANDOM_SEED),
        now=moment.replace(minute=moment.minute - moment.minute % 5),
        documents=write_demo_documents(data_dir or settings.data_dir, settings.company_name),
        id_source=seeded_random(RANDOM_SEED + 1),
    )
    # One hash for every demo account: they share the password and argon2id is slow on purpose.
    build_accounts(context, settings.staff_company_name, hash_password(DEMO_PASSWORD))
    build_services(context)
    build_terminations(context)
    build_billing(context)
    tickets = build_tickets(context)
    build_maintenances(context)
    build_samples(context, build_monitoring(context))
    # Last: the ids they draw leave every other row's as they were.
    build_conversations(context, tickets)
    build_notice_addresses(context)
