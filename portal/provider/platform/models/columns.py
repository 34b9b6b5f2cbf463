"""Column helpers shared by every table: ids, timestamps and enumerations stored as text."""

import uuid
from datetime import UTC, datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

# Named constraints, so later migrations can alter them on SQLite (batch mode) and PostgreSQL
# alike. Set before any table is declared: the names are given when a constraint is attached.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def id_field() -> uuid.UUID:
    """A random UUID primary key; the uuid is also the last segment of the resource's IRI."""
    return Field(default_factory=uuid.uuid4, primary_key=True)


def reference_field() -> str | None:
    """The provider's own external reference: imports and upserts are keyed on it."""
    return Field(default=None, max_length=100, unique=True, index=True, nullable=True)


def created_at_field() -> datetime:
    return Field(default_factory=utcnow, index=True)


def enum_type(enum: type[StrEnum]) -> sa.Enum:
    """An enumeration stored as its string values in a VARCHAR column (no database enum type),
    so a new value needs no schema change on PostgreSQL and the same migration runs on SQLite."""
    return sa.Enum(
        enum,
        native_enum=False,
        create_constraint=False,
        length=40,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )
