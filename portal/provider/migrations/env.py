"""Alembic environment of the embedded provider; configured by ``portal.provider.migrate``."""

from typing import Any, Literal

import sqlalchemy as sa
from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

from portal.provider.platform.models import metadata

# An arbitrary constant naming this application's migration lock among PostgreSQL advisory locks.
MIGRATION_LOCK_KEY = 0x50415443


def render_item(kind: str, item: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Write SQLModel's column types as the plain SQLAlchemy types they stand for, so that
    migrations do not depend on the library's internals."""
    if kind != "type":
        return False
    if isinstance(item, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if isinstance(item, AutoString):
        length = getattr(item.impl, "length", None)
        return f"sa.String(length={length})" if length else "sa.String()"
    return False


def run_migrations() -> None:
    engine: sa.Engine = context.config.attributes["engine"]
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_item=render_item,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # Several workers may start at once: the first migrates, the others wait here and
                # then find the schema at head. Held until this transaction ends.
                connection.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY}
                )
            context.run_migrations()


run_migrations()
