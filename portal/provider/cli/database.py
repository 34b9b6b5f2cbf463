"""``migrate``, ``seed-demo``, ``reset-demo`` and ``purge``."""

import time

from sqlalchemy import Engine
from sqlmodel import Session

from portal.provider.housekeeping import purge
from portal.provider.migrate import migrate
from portal.provider.platform.db import create_db_engine
from portal.provider.seed import reset_demo as reset_demo_data
from portal.provider.seed import seed_if_empty
from portal.provider.startup import startup_lock
from portal.settings import get_settings


def database_label(engine: Engine) -> str:
    """The database URL without its password, to say which database a command worked on."""
    return engine.url.render_as_string(hide_password=True)


def migrated_engine() -> Engine:
    engine = create_db_engine()
    with startup_lock(engine):
        migrate(engine)
    return engine


def migrate_database() -> bool:
    engine = migrated_engine()
    print(f"Migrated {database_label(engine)} to the newest schema.")
    return True


def seed_demo() -> bool:
    if get_settings().environment == "production":
        print("Refused: demo data is never loaded in production (ENVIRONMENT=production).")
        return False
    engine = create_db_engine()
    # Under the start-up lock, as a starting portal seeds: one demo whoever starts with it.
    with startup_lock(engine):
        migrate(engine)
        with Session(engine) as session:
            seeded = seed_if_empty(session)
            session.commit()
    if seeded:
        print(f"Loaded the demo data into {database_label(engine)}.")
    else:
        print(f"{database_label(engine)} already has users: no demo data loaded.")
    return True


def reset_demo() -> bool:
    if get_settings().environment == "production":
        print(
            "Refused: reset-demo empties every table of the database, so it never runs in "
            "production (ENVIRONMENT=production)."
        )
        return False
    engine = migrated_engine()
    started = time.perf_counter()
    with Session(engine) as session:
        reset_demo_data(session)
        session.commit()
    engine.dispose()  # browser tests call it in their own process, once per module
    print(
        f"Emptied {database_label(engine)} and loaded the demo data again "
        f"in {time.perf_counter() - started:.1f} s."
    )
    return True


def purge_expired() -> bool:
    engine = create_db_engine()
    deleted = purge(engine)
    print(
        f"Purged from {database_label(engine)}: "
        + ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in deleted.items())
        + "."
    )
    return True
