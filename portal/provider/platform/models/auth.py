"""Sessions, one-time tokens, API tokens and the audit log (DESIGN section 4)."""

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from portal.provider.platform.models.columns import enum_type, id_field, utcnow


class TokenPurpose(StrEnum):
    RESET = "reset"
    CONFIRM = "confirm"


class ProviderSession(SQLModel, table=True):
    """A signed-in browser or portal backend; the id is the SHA-256 of the cookie's token, so a
    leaked table grants no session."""

    __tablename__ = "provider_sessions"

    id: str = Field(primary_key=True, max_length=64)
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    # The staff member acting as ``user_id`` while impersonating.
    impersonator_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", index=True, ondelete="CASCADE"
    )
    created_at: datetime = Field(default_factory=utcnow, index=True)
    last_seen_at: datetime = Field(default_factory=utcnow, index=True)
    client_address: str | None = Field(default=None, max_length=64)


class OneTimeToken(SQLModel, table=True):
    """A password reset or account confirmation token, stored hashed, single use."""

    __tablename__ = "one_time_tokens"

    id: uuid.UUID = id_field()
    token_hash: str = Field(max_length=64, unique=True, index=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    purpose: TokenPurpose = Field(sa_type=enum_type(TokenPurpose))
    expires_at: datetime = Field(index=True)
    used_at: datetime | None = None


class ApiTokenKind(StrEnum):
    # An administrator's, for the integration API's writes (DESIGN 5).
    INTEGRATION = "integration"
    # A user's own, for the customer read routes (issue 51).
    PERSONAL = "personal"


class ApiToken(SQLModel, table=True):
    """A revocable token: an administrator's with which the provider's own systems load data,
    or a user's own with which their tools read what that user may read (``kind``)."""

    __tablename__ = "api_tokens"

    id: uuid.UUID = id_field()
    name: str = Field(max_length=100)
    token_hash: str = Field(max_length=64, unique=True, index=True)
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    kind: ApiTokenKind = Field(default=ApiTokenKind.INTEGRATION, sa_type=enum_type(ApiTokenKind))
    # An integration token: the integration kinds it may write (``services``, ``users``…, the
    # kinds' paths); a personal token: what it may read (``api_tokens.READ_SCOPES``). No other
    # route of the API opens to a token.
    scopes: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    created_at: datetime = Field(default_factory=utcnow)
    last_used_at: datetime | None = None
    expires_at: datetime | None = None
    revoked_at: datetime | None = None


class AuditLog(SQLModel, table=True):
    """Logins, impersonations and refusals. Actor and subject are plain uuids, not foreign keys,
    so the trail outlives deleted users; ``detail`` keeps their e-mails."""

    __tablename__ = "audit_log"

    id: uuid.UUID = id_field()
    at: datetime = Field(default_factory=utcnow, index=True)
    actor_id: uuid.UUID | None = Field(default=None, index=True)
    subject_id: uuid.UUID | None = Field(default=None, index=True)
    action: str = Field(max_length=60, index=True)
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=sa.JSON)
    client_address: str | None = Field(default=None, max_length=64)
    # How many times it happened: more than one for the entry that counts the refusals of an
    # address beyond the first few of a window (``portal.provider.platform.audit.record_refusal``).
    count: int = 1


class RateLimitCounter(SQLModel, table=True):
    """Attempts in the current window of one rate-limited key (login or reset, per account or
    per address), kept in the database so that every worker counts the same attempts. The id is
    the SHA-256 of the key, so the table holds no e-mail address or IP in clear."""

    __tablename__ = "rate_limit_counters"

    id: str = Field(primary_key=True, max_length=64)
    window_start: datetime = Field(default_factory=utcnow, index=True)
    count: int = 0


class OutboxMail(SQLModel, table=True):
    """A mail waiting to leave, kept in the same transaction as the change it announces, and
    tried again after a failure (docs/decisions/operations-faults.md). Once sent, its body —
    which holds a live reset or confirmation link — is emptied; the row stays for
    SENT_MAIL_RETENTION_DAYS as a trace of the delivery."""

    __tablename__ = "mail_outbox"

    id: uuid.UUID = id_field()
    created_at: datetime = Field(default_factory=utcnow, index=True)
    recipient: str = Field(max_length=320)
    subject: str = Field(max_length=300)
    # The whole message as RFC 5322 text, emptied once sent.
    body: str = Field(default="", sa_type=sa.Text)
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow, index=True)
    # A delivery in progress holds the row until then: another worker leaves it alone.
    claimed_until: datetime | None = None
    sent_at: datetime | None = Field(default=None, index=True)
    given_up_at: datetime | None = None
    last_error: str = Field(default="", max_length=300)
