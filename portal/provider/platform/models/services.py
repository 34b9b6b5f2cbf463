"""Services, their types, endpoints, milestones, attributes, documents and terminations."""

import datetime as dt
import uuid
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, Relationship, SQLModel

from portal.provider.platform.models.accounts import Company, User
from portal.provider.platform.models.columns import (
    created_at_field,
    enum_type,
    id_field,
    reference_field,
)


class ServiceStatus(StrEnum):
    UNDER_CONSTRUCTION = "under_construction"
    ACTIVE = "active"
    UNDER_TERMINATION = "under_termination"
    TERMINATED = "terminated"


class MilestoneName(StrEnum):
    RECEIVED = "received"
    IN_STUDY = "in_study"
    IN_PROGRESS = "in_progress"
    TESTED = "tested"
    OPERATIONAL = "operational"


class DocumentKind(StrEnum):
    HANDOVER = "handover"
    LOA = "loa"


class ServiceType(SQLModel, table=True):
    __tablename__ = "service_types"

    id: uuid.UUID = id_field()
    # Stable product key such as ``ip_transit``; imports refer to types by it.
    key: str = Field(max_length=60, unique=True, index=True)
    label_en: str = Field(max_length=120)
    label_fr: str = Field(max_length=120)
    position: int = Field(default=0, index=True)


class Endpoint(SQLModel, table=True):
    __tablename__ = "endpoints"

    id: uuid.UUID = id_field()
    reference: str | None = reference_field()
    name: str = Field(max_length=200)
    number: str | None = Field(default=None, max_length=20)
    street: str | None = Field(default=None, max_length=200)
    postal_code: str | None = Field(default=None, max_length=20)
    city: str | None = Field(default=None, max_length=100)
    country: str | None = Field(default=None, max_length=100)


class ServiceMilestone(SQLModel, table=True):
    __tablename__ = "service_milestones"

    id: uuid.UUID = id_field()
    service_id: uuid.UUID = Field(foreign_key="services.id", index=True, ondelete="CASCADE")
    name: MilestoneName = Field(sa_type=enum_type(MilestoneName))
    date: dt.date | None = None
    completed: bool = False
    position: int = 0


class ServiceAttribute(SQLModel, table=True):
    __tablename__ = "service_attributes"

    id: uuid.UUID = id_field()
    service_id: uuid.UUID = Field(foreign_key="services.id", index=True, ondelete="CASCADE")
    name: str = Field(max_length=100)
    value: str = Field(max_length=500)
    group_name: str | None = Field(default=None, max_length=100)
    constrained: bool = False


class ServiceDocument(SQLModel, table=True):
    """A handover or letter of authorisation (LOA) of a service."""

    __tablename__ = "service_documents"

    id: uuid.UUID = id_field()
    service_id: uuid.UUID = Field(foreign_key="services.id", index=True, ondelete="CASCADE")
    kind: DocumentKind = Field(sa_type=enum_type(DocumentKind), index=True)
    name: str = Field(max_length=255)
    file_path: str = Field(max_length=500)
    content_type: str = Field(default="application/pdf", max_length=100)


class Service(SQLModel, table=True):
    __tablename__ = "services"
    # A customer's list is read one company at a time in the order shown, the reference
    # breaking ties in the sort's direction: one (company, field, reference) index per sort,
    # carrying the id and the filtered columns on PostgreSQL (migration 0029,
    # docs/decisions/deep-service-pages.md). The search is a LIKE on the folded text, served by
    # a trigram index on PostgreSQL (migration 0004, docs/decisions/service-search.md).
    __table_args__ = (
        sa.Index("ix_services_company_id_status", "company_id", "status"),
        sa.Index(
            "ix_services_company_id_status_reference",
            "company_id",
            "status",
            "reference",
            postgresql_include=["id", "type_id"],
        ),
        sa.Index(
            "ix_services_company_id_date_start",
            "company_id",
            "date_start",
            "reference",
            postgresql_include=["id", "status", "type_id"],
        ),
        sa.Index(
            "ix_services_company_id_reference",
            "company_id",
            "reference",
            postgresql_include=["id", "status", "type_id"],
        ),
        sa.Index("ix_services_date_start_reference", "date_start", "reference"),
        sa.Index("ix_services_status_reference", "status", "reference"),
        sa.Index("ix_services_status_date_start", "status", "date_start", "reference"),
        # What a maintenance's link to a service refers to: the service with its company, so
        # that the link carries the company and follows it (docs/decisions/maintenance-scope.md).
        sa.Index("ix_services_id_company_id", "id", "company_id", unique=True),
        sa.Index(
            "ix_services_search_text_trgm",
            "search_text",
            postgresql_using="gin",
            postgresql_ops={"search_text": "gin_trgm_ops"},
        ),
    )

    id: uuid.UUID = id_field()
    reference: str = Field(max_length=100, unique=True, index=True)
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True)
    type_id: uuid.UUID = Field(foreign_key="service_types.id", index=True)
    status: ServiceStatus = Field(sa_type=enum_type(ServiceStatus))
    date_start: dt.date | None = None
    date_termination: dt.date | None = None
    client_references: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    # Reference, client references, endpoints and type labels folded (lower-case, no accents)
    # for the global search; kept in step by ``portal.provider.platform.models.search`` on
    # every flush.
    search_text: str = Field(default="", sa_type=sa.Text)
    delivery_manager_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", index=True, ondelete="SET NULL"
    )
    order_reference: str | None = Field(default=None, max_length=100)
    order_pdf_path: str | None = Field(default=None, max_length=500)
    order_pdf_name: str | None = Field(default=None, max_length=255)
    endpoint_a_id: uuid.UUID | None = Field(
        default=None, foreign_key="endpoints.id", index=True, ondelete="SET NULL"
    )
    endpoint_b_id: uuid.UUID | None = Field(
        default=None, foreign_key="endpoints.id", index=True, ondelete="SET NULL"
    )
    created_at: dt.datetime = created_at_field()

    company: Company = Relationship()
    type: ServiceType = Relationship()
    delivery_manager: User | None = Relationship()
    endpoint_a: Endpoint | None = Relationship(
        sa_relationship_kwargs={"foreign_keys": "Service.endpoint_a_id"}
    )
    endpoint_b: Endpoint | None = Relationship(
        sa_relationship_kwargs={"foreign_keys": "Service.endpoint_b_id"}
    )
    milestones: list[ServiceMilestone] = Relationship(
        cascade_delete=True, sa_relationship_kwargs={"order_by": "ServiceMilestone.position"}
    )
    attributes: list[ServiceAttribute] = Relationship(cascade_delete=True)
    documents: list[ServiceDocument] = Relationship(cascade_delete=True)


class TerminationService(SQLModel, table=True):
    __tablename__ = "termination_services"

    termination_id: uuid.UUID = Field(
        foreign_key="terminations.id", primary_key=True, ondelete="CASCADE"
    )
    service_id: uuid.UUID = Field(
        foreign_key="services.id", primary_key=True, index=True, ondelete="CASCADE"
    )


class TerminationDocument(SQLModel, table=True):
    __tablename__ = "termination_documents"

    id: uuid.UUID = id_field()
    termination_id: uuid.UUID = Field(foreign_key="terminations.id", index=True, ondelete="CASCADE")
    filename: str = Field(max_length=255)
    file_path: str = Field(max_length=500)


class Termination(SQLModel, table=True):
    """A termination order covering one or more services, with its documents."""

    __tablename__ = "terminations"

    id: uuid.UUID = id_field()
    reference: str | None = reference_field()
    date: dt.date | None = None

    services: list[Service] = Relationship(link_model=TerminationService)
    documents: list[TerminationDocument] = Relationship(cascade_delete=True)
