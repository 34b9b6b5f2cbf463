"""Companies and their users, staff and customers alike (spec section 3)."""

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Optional

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.provider.platform.models.columns import (
    created_at_field,
    enum_type,
    id_field,
    reference_field,
    utcnow,
)
from portal.provider.platform.models.notices import MaintenanceNotices, TicketNotices


class Job(StrEnum):
    BUSINESS_ENGINEER = "business_engineer"
    CORPORATE_SALES_MANAGER = "corporate_sales_manager"
    WHOLESALES_MANAGER = "wholesales_manager"
    SALES_DIRECTOR_FRANCE = "sales_director_france"
    DEPUTY_SALES_DIRECTOR = "deputy_sales_director"
    CEO = "ceo"
    SALES_MANAGEMENT_ASSISTANT = "sales_management_assistant"
    SALES_ADMINISTRATION_MANAGER = "sales_administration_manager"
    SALES_ASSISTANT = "sales_assistant"


class CompanySales(SQLModel, table=True):
    """The provider's sales representatives serving a company."""

    __tablename__ = "company_sales"

    company_id: uuid.UUID = Field(foreign_key="companies.id", primary_key=True, ondelete="CASCADE")
    user_id: uuid.UUID = Field(
        foreign_key="users.id", primary_key=True, index=True, ondelete="CASCADE"
    )


class UserAuxiliaryCompany(SQLModel, table=True):
    __tablename__ = "user_auxiliary_companies"

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    company_id: uuid.UUID = Field(
        foreign_key="companies.id", primary_key=True, index=True, ondelete="CASCADE"
    )


class UserAssistant(SQLModel, table=True):
    """A sales contact's assistants, shown as further contacts (spec: Contacts)."""

    __tablename__ = "user_assistants"

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    assistant_id: uuid.UUID = Field(
        foreign_key="users.id", primary_key=True, index=True, ondelete="CASCADE"
    )


class Company(SQLModel, table=True):
    __tablename__ = "companies"

    id: uuid.UUID = id_field()
    reference: str | None = reference_field()
    name: str = Field(max_length=200, unique=True, index=True)
    created_at: datetime = created_at_field()
    # The billing address and language of its invoices' PDFs (en or fr).
    language: str = Field(default="en", max_length=5, sa_column_kwargs={"server_default": "en"})
    street: str | None = Field(default=None, max_length=255)
    postal_code: str | None = Field(default=None, max_length=20)
    city: str | None = Field(default=None, max_length=100)
    country: str | None = Field(default=None, max_length=100)
    # Issue 52: its users must set up a second factor before anything else opens (set by
    # provider administrators).
    second_factor_required: bool = Field(
        default=False, sa_column_kwargs={"server_default": sa.false()}
    )

    sales: list["User"] = Relationship(link_model=CompanySales)


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: uuid.UUID = id_field()
    reference: str | None = reference_field()
    firstname: str = Field(max_length=100, index=True)
    lastname: str = Field(max_length=100, index=True)
    # Stored lower-case; logins and the uniqueness check compare lower-case addresses.
    email: str = Field(max_length=254, unique=True, index=True)
    # "firstname lastname" folded (lower-case, accents stripped) for the ``name`` filter;
    # kept in step by ``portal.provider.platform.models.search`` whenever a user is flushed.
    search_name: str = Field(default="", max_length=210, index=True)
    phone_number: str | None = Field(default=None, max_length=50)
    job: Job | None = Field(default=None, sa_type=enum_type(Job), nullable=True)
    roles: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True)
    has_accepted_terms: bool = False
    terms_accepted_at: datetime | None = None
    ldap: bool = False
    # None for LDAP users and for accounts whose owner has not yet chosen a password.
    password_hash: str | None = Field(default=None, max_length=255)
    office_phone: str | None = Field(default=None, max_length=50)
    mobile_phone: str | None = Field(default=None, max_length=50)
    manager_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", index=True, ondelete="SET NULL"
    )
    created_at: datetime = created_at_field()
    is_active: bool = True
    # The language of the e-mails the user receives: the creator's at creation, then the
    # browser's at each login.
    language: str = Field(default="en", max_length=5, sa_column_kwargs={"server_default": "en"})
    # The maintenance notices the user takes (docs/decisions/maintenance-notices.md), and the
    # time zone their e-mails show times in.
    maintenance_notices: MaintenanceNotices = Field(
        default=MaintenanceNotices.ALL,
        sa_type=enum_type(MaintenanceNotices),
        sa_column_kwargs={"server_default": MaintenanceNotices.ALL.value},
    )
    time_zone: str = Field(default="UTC", max_length=64, sa_column_kwargs={"server_default": "UTC"})
    ticket_notices: TicketNotices = Field(
        default=TicketNotices.OPENED,
        sa_type=enum_type(TicketNotices),
        sa_column_kwargs={"server_default": TicketNotices.OPENED.value},
    )
    # Set once the user chooses the e-mails' language or time zone (the Notifications page):
    # until then each login takes the browser's.
    language_chosen: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})
    time_zone_chosen: bool = Field(default=False, sa_column_kwargs={"server_default": sa.false()})

    company: Company = Relationship()
    auxiliary_companies: list[Company] = Relationship(link_model=UserAuxiliaryCompany)
    manager: Optional["User"] = Relationship(
        sa_relationship_kwargs={"remote_side": "User.id", "foreign_keys": "User.manager_id"}
    )
    assistants: list["User"] = Relationship(
        link_model=UserAssistant,
        sa_relationship_kwargs={
            "primaryjoin": "User.id == UserAssistant.user_id",
            "secondaryjoin": "User.id == UserAssistant.assistant_id",
        },
    )

    @property
    def full_name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()

    @property
    def company_ids(self) -> set[uuid.UUID]:
        """The main company and the auxiliary ones: the companies whose data the user sees."""
        return {self.company_id, *(company.id for company in self.auxiliary_companies)}


class UserAccessLimit(SQLModel, table=True):
    """A user limited, in one of their companies, to the services of their grants there (issue
    53): without a row the user sees every service of that company, as before."""

    __tablename__ = "user_access_limits"

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    company_id: uuid.UUID = Field(
        foreign_key="companies.id", primary_key=True, index=True, ondelete="CASCADE"
    )
    changed_at: datetime = Field(default_factory=utcnow)


class UserServiceGrant(SQLModel, table=True):
    """A service a limited user sees. The key (user, service) is what the scope joins on: a
    limited user's rows are read through it, never through a list of ids in the statement."""

    __tablename__ = "user_service_grants"
    __table_args__ = (
        sa.Index("ix_user_service_grants_user_id_company_id", "user_id", "company_id"),
    )

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    service_id: uuid.UUID = Field(
        foreign_key="services.id", primary_key=True, index=True, ondelete="CASCADE"
    )
    # The service's company, for the count per company and for clearing one company's set.
    company_id: uuid.UUID = Field(foreign_key="companies.id", ondelete="CASCADE")
