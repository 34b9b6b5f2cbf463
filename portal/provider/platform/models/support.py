"""Support tickets and maintenance windows."""

import uuid
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.i18n import N_
from portal.provider.platform.models.columns import enum_type, id_field, reference_field, utcnow
from portal.provider.platform.models.services import Service


class TicketStatus(StrEnum):
    ACTIVE = "active"
    OPEN = "open"
    CLOSED = "closed"
    SOLVED = "solved"
    WAITING_FOR_ACTION = "waitingForAction"
    IN_PROGRESS = "inProgress"
    ON_HOLD_RFO = "onHoldRFO"
    ON_HOLD = "onHold"
    RESTORED_SERVICE = "restoredService"
    WAITING_FOR_ACCEPTANCE = "waitingForAcceptance"
    ON_HOLD_CUSTOMER_FEEDBACK_REQUIRED = "onHoldCustomerFeedbackRequired"


# The statuses' names, as the API and the e-mails show them (translated for the reader).
STATUS_LABELS = {
    TicketStatus.ACTIVE: N_("Active"),
    TicketStatus.OPEN: N_("Open"),
    TicketStatus.CLOSED: N_("Closed"),
    TicketStatus.SOLVED: N_("Solved"),
    TicketStatus.WAITING_FOR_ACTION: N_("Waiting for action"),
    TicketStatus.IN_PROGRESS: N_("In progress"),
    TicketStatus.ON_HOLD_RFO: N_("On hold (RFO)"),
    TicketStatus.ON_HOLD: N_("On hold"),
    TicketStatus.RESTORED_SERVICE: N_("Service restored"),
    TicketStatus.WAITING_FOR_ACCEPTANCE: N_("Waiting for acceptance"),
    TicketStatus.ON_HOLD_CUSTOMER_FEEDBACK_REQUIRED: N_("On hold, customer feedback required"),
}


class TicketPriority(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


class MaintenanceType(StrEnum):
    PREVENTIVE = "preventive"
    EMERGENCY = "emergency"
    CORRECTIVE = "corrective"
    INFORMATION = "information"


class MaintenanceClassification(StrEnum):
    NO_IMPACT = "noImpact"
    DEGRADED = "degraded"
    OUTAGE = "outage"


class MaintenanceStatus(StrEnum):
    SCHEDULED = "scheduled"
    ONGOING = "ongoing"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


class AuthorType(StrEnum):
    CUSTOMER = "customer"
    PROVIDER = "provider"


class TicketEventType(StrEnum):
    """What the helpdesk reads in ``GET /api/integration/events``."""

    TICKET_OPENED = "ticketOpened"
    MESSAGE_POSTED = "messagePosted"
    ATTACHMENT_ADDED = "attachmentAdded"
    TICKET_CLOSED = "ticketClosed"
    TICKET_REOPENED = "ticketReopened"


class TicketAttachment(SQLModel, table=True):
    __tablename__ = "ticket_attachments"

    id: uuid.UUID = id_field()
    ticket_id: uuid.UUID = Field(foreign_key="tickets.id", index=True, ondelete="CASCADE")
    # The message the file came with; none: a file of the ticket itself.
    message_id: uuid.UUID | None = Field(
        default=None, foreign_key="ticket_messages.id", index=True, ondelete="CASCADE"
    )
    filename: str = Field(max_length=255)
    size: int = 0
    content_type: str = Field(default="application/octet-stream", max_length=100)
    file_path: str = Field(max_length=500)


class TicketMessage(SQLModel, table=True):
    """One message of a ticket's conversation: a customer's, written in the portal, or the
    provider's, sent by the helpdesk through the integration API (keyed on its ``reference``,
    so a batch sent again adds nothing). The ticket's description is not one of them."""

    __tablename__ = "ticket_messages"
    __table_args__ = (sa.Index("ix_ticket_messages_ticket_id_created", "ticket_id", "created"),)

    id: uuid.UUID = id_field()
    ticket_id: uuid.UUID = Field(foreign_key="tickets.id", ondelete="CASCADE")
    reference: str | None = reference_field()
    author_type: AuthorType = Field(sa_type=enum_type(AuthorType))
    # The customer who wrote it (none for the provider's, or once the user is deleted).
    author_id: uuid.UUID | None = Field(default=None, foreign_key="users.id", ondelete="SET NULL")
    author_name: str = Field(max_length=200)
    body: str = Field(sa_type=sa.Text)
    # ``body`` rendered from Markdown and sanitised (portal.markup): safe to show as HTML.
    body_html: str = Field(sa_type=sa.Text)
    created: datetime = Field(default_factory=utcnow)


class TicketReadMark(SQLModel, table=True):
    """Up to when a user has read a ticket's conversation."""

    __tablename__ = "ticket_read_marks"

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    ticket_id: uuid.UUID = Field(foreign_key="tickets.id", primary_key=True, ondelete="CASCADE")
    read_at: datetime = Field(default_factory=utcnow)


class TicketEvent(SQLModel, table=True):
    """What customers did in the portal, for the helpdesk to read in order: the id is the
    feed's cursor (docs/decisions/ticket-conversations.md)."""

    __tablename__ = "ticket_events"
    # SQLite would otherwise hand a purged id out again: after a purge that emptied the
    # table, the next event would be 1, behind every cursor.
    __table_args__ = {"sqlite_autoincrement": True}

    id: int | None = Field(default=None, primary_key=True)
    type: TicketEventType = Field(sa_type=enum_type(TicketEventType))
    ticket_id: uuid.UUID = Field(foreign_key="tickets.id", index=True, ondelete="CASCADE")
    message_id: uuid.UUID | None = Field(
        default=None, foreign_key="ticket_messages.id", ondelete="CASCADE"
    )
    attachment_id: uuid.UUID | None = Field(
        default=None, foreign_key="ticket_attachments.id", ondelete="CASCADE"
    )
    created: datetime = Field(default_factory=utcnow)


class TicketFeedHorizon(SQLModel, table=True):
    """How far the purge has deleted the feed (its one row): every event up to
    ``purged_through`` is gone, so a cursor before it may have missed some (410)."""

    __tablename__ = "ticket_feed_horizon"

    id: int = Field(default=1, primary_key=True)
    purged_through: int


class Ticket(SQLModel, table=True):
    __tablename__ = "tickets"
    __table_args__ = (
        # A customer's list, one company at a time in date order, its status filter and the
        # ids read from the index alone on PostgreSQL; the status counts of the tiles.
        sa.Index(
            "ix_tickets_company_id_date_created",
            "company_id",
            "date_created",
            "number",
            postgresql_include=["id", "status"],
        ),
        sa.Index("ix_tickets_company_id_status", "company_id", "status"),
        # A limited user's tickets (about their services, or opened by them) and their status
        # counts, read from the index alone on PostgreSQL as an unlimited user's counts are.
        sa.Index(
            "ix_tickets_company_id_service_id",
            "company_id",
            "service_id",
            postgresql_include=["status", "requester_email"],
        ),
        sa.Index("ix_tickets_date_created_number", "date_created", "number"),
        sa.Index(
            "ix_tickets_search_subject_trgm",
            "search_subject",
            postgresql_using="gin",
            postgresql_ops={"search_subject": "gin_trgm_ops"},
        ),
    )

    id: uuid.UUID = id_field()
    # Shown as ``#number``; the helpdesk's own numbering.
    number: int = Field(unique=True, index=True)
    reference: str | None = reference_field()
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True)
    name: str = Field(max_length=200)
    date_created: datetime = Field(default_factory=utcnow, index=True)
    subject: str = Field(max_length=500)
    # The subject folded (lower case, no accents) for the list's filter; kept by search.py.
    search_subject: str = Field(default="", max_length=500)
    status: TicketStatus = Field(sa_type=enum_type(TicketStatus), index=True)
    priority: TicketPriority = Field(sa_type=enum_type(TicketPriority), index=True)
    # Sanitised before it is stored (DESIGN section 4): safe to render as HTML.
    description_html: str = Field(default="", sa_type=sa.Text)
    short_description: str | None = Field(default=None, max_length=500)
    requester_email: str | None = Field(default=None, max_length=254)
    technician_email: str | None = Field(default=None, max_length=254)
    account_name: str | None = Field(default=None, max_length=200, index=True)
    # The helpdesk's own categories (incident, request, question…): free text.
    type: str | None = Field(default=None, max_length=60)
    service_reference: str | None = Field(default=None, max_length=100, index=True)
    # The service ``service_reference`` names, kept with it by every writer (and filled in when
    # the service arrives after the ticket): a limited user's tickets are joined on it (issue 53).
    service_id: uuid.UUID | None = Field(
        default=None, foreign_key="services.id", ondelete="SET NULL"
    )
    # When it was last closed: a customer may reopen it for 14 days after.
    closed_at: datetime | None = None
    # The newest provider message, for the lists' unread mark.
    last_reply_at: datetime | None = None

    attachments: list[TicketAttachment] = Relationship(cascade_delete=True)


class MaintenanceService(SQLModel, table=True):
    """A service a maintenance impacts, with the service's company: a customer's maintenances
    are then read from this table's index of companies alone, without joining the services.
    The company is part of the key to the service, so that the database fills it in with each
    link (SQLAlchemy copies both columns of the key) and carries a service's move to another
    company over to its links (docs/decisions/maintenance-scope.md)."""

    __tablename__ = "maintenance_services"
    __table_args__ = (
        sa.ForeignKeyConstraint(
            ["service_id", "company_id"],
            ["services.id", "services.company_id"],
            onupdate="CASCADE",
            ondelete="CASCADE",
        ),
        sa.Index(
            "ix_maintenance_services_company_id_maintenance_id", "company_id", "maintenance_id"
        ),
    )

    maintenance_id: uuid.UUID = Field(
        foreign_key="maintenances.id", primary_key=True, ondelete="CASCADE"
    )
    service_id: uuid.UUID = Field(primary_key=True, index=True)
    company_id: uuid.UUID


class MaintenanceContact(SQLModel, table=True):
    """Whom to ask about a maintenance. A contact belongs to one customer company, shown only to
    its users (and staff), or to none: then it is the provider's own, shown to every reader when
    its e-mail is of the staff mail domain and to staff only otherwise
    (docs/decisions/maintenance-contacts.md)."""

    __tablename__ = "maintenance_contacts"

    id: uuid.UUID = id_field()
    maintenance_id: uuid.UUID = Field(foreign_key="maintenances.id", index=True, ondelete="CASCADE")
    email: str = Field(max_length=254)
    company_id: uuid.UUID | None = Field(
        default=None, foreign_key="companies.id", index=True, ondelete="CASCADE"
    )


class Maintenance(SQLModel, table=True):
    __tablename__ = "maintenances"
    __table_args__ = (
        # A calendar's period: the windows ending after its start, read in the index up to
        # those starting before its end (issue 14, the month of a heavy tenant).
        sa.Index("ix_maintenances_date_end_date_start", "date_end", "date_start"),
    )

    id: uuid.UUID = id_field()
    reference: str = Field(max_length=100, unique=True, index=True)
    name: str = Field(max_length=300)
    type: MaintenanceType = Field(sa_type=enum_type(MaintenanceType), index=True)
    classification: MaintenanceClassification = Field(
        sa_type=enum_type(MaintenanceClassification), index=True
    )
    status: MaintenanceStatus = Field(sa_type=enum_type(MaintenanceStatus), index=True)
    date_start: datetime = Field(index=True)
    date_end: datetime = Field()
    date_notification: datetime | None = Field(default=None, index=True)
    # Raised at every change, for the calendar feed's SEQUENCE (RFC 5545 3.8.7.4), with the
    # moment of that change (its LAST-MODIFIED).
    sequence: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    updated_at: datetime = Field(default_factory=utcnow)

    services: list[Service] = Relationship(link_model=MaintenanceService)
    contacts: list[MaintenanceContact] = Relationship(cascade_delete=True)


class CalendarFeed(SQLModel, table=True):
    """A user's private iCalendar feed of maintenances: one per user, reached by a random token
    kept only as its SHA-256; regenerating replaces it, revoking deletes it, and deleting the
    user deletes it (docs/decisions/maintenance-calendar-feed.md)."""

    __tablename__ = "calendar_feeds"

    id: uuid.UUID = id_field()
    user_id: uuid.UUID = Field(foreign_key="users.id", unique=True, ondelete="CASCADE")
    token_hash: str = Field(max_length=64, unique=True, index=True)
    # The language of the feed's texts: the portal's when the link was made.
    language: str = Field(default="en", max_length=5)
    created_at: datetime = Field(default_factory=utcnow)
    last_used_at: datetime | None = None
