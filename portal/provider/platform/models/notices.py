"""Maintenance notices (issue 50): who takes them, the extra addresses a company sends them to,
and the notices waiting for their due time (docs/decisions/maintenance-notices.md)."""

import uuid
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from portal.provider.platform.models.columns import created_at_field, enum_type, id_field


class MaintenanceNotices(StrEnum):
    """Which maintenance notices a user takes."""

    ALL = "all"  # every maintenance touching the services of any of the user's companies
    NONE = "none"


class TicketNotices(StrEnum):
    """Which ticket updates a user takes."""

    OPENED = "opened"  # the tickets the user opened
    ALL = "all"  # every ticket of the user's companies
    NONE = "none"


class NoticeEvent(StrEnum):
    """What happened to a maintenance, as a company's notice tells it."""

    SCHEDULED = "scheduled"
    CHANGED = "changed"
    CANCELLED = "cancelled"
    STARTED = "started"
    COMPLETED = "completed"


class NoticeAddress(SQLModel, table=True):
    """An extra address a company's maintenance notices go to, a NOC mailbox that is no portal
    user. Nothing but its confirmation link goes there until it is confirmed."""

    __tablename__ = "notice_addresses"
    __table_args__ = (sa.UniqueConstraint("company_id", "email"),)

    id: uuid.UUID = id_field()
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True, ondelete="CASCADE")
    # Stored lower-case.
    email: str = Field(max_length=254)
    language: str = Field(default="en", max_length=5)
    time_zone: str = Field(default="UTC", max_length=64)
    created_at: datetime = created_at_field()
    confirmed_at: datetime | None = None


class MaintenanceNotice(SQLModel, table=True):
    """A notice of a change of a maintenance to one recipient (a user or an extra address)
    about one company's services, waiting for its due time: the changes that come before it are
    told by the same notice, which is written from the maintenance's state at delivery."""

    __tablename__ = "maintenance_notices"

    id: uuid.UUID = id_field()
    maintenance_id: uuid.UUID = Field(foreign_key="maintenances.id", index=True, ondelete="CASCADE")
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True, ondelete="CASCADE")
    user_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", index=True, ondelete="CASCADE"
    )
    address_id: uuid.UUID | None = Field(
        default=None, foreign_key="notice_addresses.id", index=True, ondelete="CASCADE"
    )
    # The first change the recipient has not heard of yet.
    event: NoticeEvent = Field(sa_type=enum_type(NoticeEvent))
    due_at: datetime = Field(index=True)
    created_at: datetime = created_at_field()
