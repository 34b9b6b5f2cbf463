"""Alembic, configured in code: no ``alembic.ini`` to keep in step with the settings.

``migrate()`` brings a database to the newest revision (the provider runs it at start-up, the CLI
on demand); ``new_revision()`` autogenerates the next migration from the models.
"""

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

from portal.provider.platform.db import create_db_engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["engine"] = engine
    return config


def migrate(engine: Engine | None = None) -> None:
    """Apply every migration up to head."""
    command.upgrade(alembic_config(engine or create_db_engine()), "head")


def new_revision(message: str, engine: Engine | None = None) -> None:
    """Write the next migration, diffing the models against a database already at head."""
    command.revision(
        alembic_config(engine or create_db_engine()), message=message, autogenerate=True
    )
