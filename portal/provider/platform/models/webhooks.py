"""Webhooks (issue 51, items 4 and 5): a company's endpoints, and the outbox of their
deliveries, which is also each endpoint's delivery log (docs/decisions/webhooks.md)."""

import uuid
from datetime import datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from portal.provider.platform.models.columns import enum_type, id_field, utcnow


class WebhookDeliveryState(StrEnum):
    PENDING = "pending"
    DELIVERED = "delivered"
    # Not delivered within the retry window (the endpoint was disabled), or left waiting when
    # its endpoint was disabled or deleted.
    FAILED = "failed"


class WebhookEndpoint(SQLModel, table=True):
    """A company's HTTPS receiver of the events it subscribed to. The signing secret is sealed
    (``platform.sealed``); during a rotation the previous one signs too, until it expires."""

    __tablename__ = "webhook_endpoints"

    id: uuid.UUID = id_field()
    company_id: uuid.UUID = Field(foreign_key="companies.id", index=True, ondelete="CASCADE")
    url: str = Field(max_length=2000)
    description: str = Field(default="", max_length=300)
    event_types: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    enabled: bool = True
    # Why it is disabled: ``manual`` (a user manager) or ``failing`` (the retry window ended).
    disabled_reason: str | None = Field(default=None, max_length=20)
    secret: str = Field(max_length=200)
    previous_secret: str | None = Field(default=None, max_length=200)
    previous_secret_expires_at: datetime | None = None
    created_at: datetime = Field(default_factory=utcnow)
    # One worker delivers an endpoint's events at a time, in order, until then.
    claimed_until: datetime | None = None


class WebhookDelivery(SQLModel, table=True):
    """One event for one endpoint: its body, signed again at each attempt under the same
    ``webhook-id``, and what the last attempt got. The integer id is the order of delivery: ids
    are committed in their order (``platform.webhooks.enqueue``)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        sa.Index("ix_webhook_deliveries_endpoint_id_state_id", "endpoint_id", "state", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(max_length=40, unique=True)
    endpoint_id: uuid.UUID = Field(foreign_key="webhook_endpoints.id", ondelete="CASCADE")
    event_type: str = Field(max_length=40)
    payload: str = Field(sa_type=sa.Text)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    state: WebhookDeliveryState = Field(
        default=WebhookDeliveryState.PENDING, sa_type=enum_type(WebhookDeliveryState)
    )
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow)
    last_attempt_at: datetime | None = None
    response_status: int | None = None
    latency_ms: int | None = None
    response_excerpt: str = Field(default="", max_length=500)
    error: str = Field(default="", max_length=300)
