"""A company's webhook endpoints and their delivery logs (issue 51)."""

import datetime as dt

from pydantic import Field

from portal.client.models.base import Entity


class Webhook(Entity):
    company: str = ""
    url: str = ""
    description: str = ""
    event_types: list[str] = Field(default_factory=list)
    enabled: bool = True
    # ``manual`` or ``failing`` while disabled.
    disabled_reason: str | None = None
    created_at: dt.datetime | None = None
    previous_secret_expires_at: dt.datetime | None = None
    # The signing secret, in the answers of a creation and a rotation only.
    secret: str = ""


class WebhookDelivery(Entity):
    message_id: str = ""
    event_type: str = ""
    # ``pending``, ``delivered`` or ``failed``.
    state: str = ""
    created_at: dt.datetime | None = None
    attempts: int = 0
    last_attempt_at: dt.datetime | None = None
    next_attempt_at: dt.datetime | None = None
    response_status: int | None = None
    latency_ms: int | None = None
    response_excerpt: str = ""
    error: str = ""
