"""The generator from start to end: migrate, empty, generate and COPY, rebuild indexes,
``VACUUM ANALYZE``."""

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from bench.generate.accounts import build_accounts
from bench.generate.billing import build_billing
from bench.generate.loader import (
    Loader,
    begin,
    copy_chunks,
    copy_statement,
    plain_url,
    rebuild,
)
from bench.generate.monitoring import (
    ROLLUP_COLUMNS,
    SAMPLE_COLUMNS,
    SampleStreams,
    build_sensors,
    mark_rollups,
    sample_chunks,
)
from bench.generate.plan import Plan
from bench.generate.services import build_services
from bench.generate.support import build_maintenances, build_tickets
from bench.generate.world import World
from portal.provider.accounts.passwords import hash_password
from portal.provider.demo_data.documents import write_demo_documents
from portal.provider.demo_data.people import DEMO_PASSWORD
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.settings import DATA_DIR, Settings, get_settings


class NotPostgreSQL(ValueError):
    pass


def sqlalchemy_url(database_url: str) -> str:
    url = Settings(database_url=database_url).sqlalchemy_url
    if make_url(url).get_backend_name() != "postgresql":
        raise NotPostgreSQL(
            "The scale generator loads PostgreSQL through COPY; DATABASE_URL points at "
            f"{make_url(url).get_backend_name()}. Set DATABASE_URL=postgresql://user@host:port/db "
            "(a database of its own: every provider table in it is emptied)."
        )
    return url


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def generate(
    database_url: str,
    plan: Plan,
    data_dir: Path = DATA_DIR,
    spool_dir: Path | None = None,
    log: Callable[[str], None] = _log,
) -> float:
    """Replace the provider data of ``database_url`` with the plan's data set; answers the
    seconds it took."""
    started = time.perf_counter()
    url = sqlalchemy_url(database_url)
    engine = create_db_engine(url)
    migrate(engine)
    engine.dispose()
    log(
        f"Generating scale {plan.scale:g} (seed {plan.seed}, anchor {plan.anchor}) into "
        f"{make_url(url).render_as_string(hide_password=True)}"
    )
    settings = get_settings()
    with tempfile.TemporaryDirectory(prefix="bench-data-", dir=spool_dir) as folder:
        world = World(
            plan=plan,
            folder=Path(folder),
            documents=write_demo_documents(data_dir, settings.company_name),
            # One hash for every account (argon2id is slow on purpose): the demo password.
            password_hash=hash_password(DEMO_PASSWORD),
        )
        with psycopg.connect(plain_url(database_url)) as connection:
            set_aside = begin(connection)
            loader = Loader(connection, log)
            steps = (
                lambda: build_accounts(world, settings.staff_company_name),
                lambda: build_services(world),
                lambda: build_billing(world),
                lambda: build_tickets(world),
                lambda: build_maintenances(world),
            )
            for step in steps:
                step()
                _hand_over(world, loader)
            sampled = build_sensors(world)
            _hand_over(world, loader)
            loader.finish()
            streams = SampleStreams(rollups=[])
            copy_chunks(
                connection,
                copy_statement("sensor_samples", SAMPLE_COLUMNS, binary=True),
                sample_chunks(world, sampled, streams),
            )
            copy_chunks(
                connection,
                copy_statement("sensor_rollups", ROLLUP_COLUMNS, binary=True),
                streams.rollups,
            )
            mark_rollups(connection, world.plan.anchor_time)
            rebuild(connection, set_aside, log)
            connection.commit()
        _vacuum(database_url, log)
    took = time.perf_counter() - started
    log(f"Done in {took:.0f} s.")
    return took


def _hand_over(world: World, loader: Loader) -> None:
    for spool in world.spools.values():
        loader.load(spool)
    world.spools.clear()


def _vacuum(database_url: str, log: Callable[[str], None]) -> None:
    started = time.perf_counter()
    with psycopg.connect(plain_url(database_url), autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE")
    log(f"{'VACUUM ANALYZE':<28} {time.perf_counter() - started:>43.1f} s")
