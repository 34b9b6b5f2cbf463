"""TOTP second factor (issue 18, item 10): the enrolled secret (sealed), single-use recovery
codes stored hashed, remembered devices and logins waiting for their second step (tokens stored
hashed)."""

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from portal.provider.platform.models.columns import id_field, utcnow


class SecondFactor(SQLModel, table=True):
    __tablename__ = "second_factors"

    user_id: uuid.UUID = Field(foreign_key="users.id", primary_key=True, ondelete="CASCADE")
    # The RFC 6238 shared secret that the authenticator app holds, sealed with SECOND_FACTOR_KEY
    # (``portal.provider.accounts.sealing``): never in clear.
    sealed_secret: str = Field(max_length=200)
    # None until the first code proves the app holds the secret.
    confirmed_at: datetime | None = Field(default=None)
    # The last TOTP time step accepted: a code is never accepted twice.
    last_step: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)


class RecoveryCode(SQLModel, table=True):
    __tablename__ = "recovery_codes"

    id: uuid.UUID = id_field()
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    code_hash: str = Field(max_length=64, unique=True)
    used_at: datetime | None = Field(default=None)


class RememberedDevice(SQLModel, table=True):
    __tablename__ = "remembered_devices"

    id: str = Field(primary_key=True, max_length=64)  # SHA-256 of the cookie's token
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    expires_at: datetime = Field(index=True)


class PendingLogin(SQLModel, table=True):
    """A password accepted, the second factor still due (a few minutes)."""

    __tablename__ = "pending_logins"

    id: str = Field(primary_key=True, max_length=64)  # SHA-256 of the cookie's token
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    expires_at: datetime = Field(index=True)


class Passkey(SQLModel, table=True):
    """A WebAuthn credential (issue 52, item 1): a discoverable passkey that signs the user in
    without a password, or serves as their second factor."""

    __tablename__ = "passkeys"

    id: uuid.UUID = id_field()
    user_id: uuid.UUID = Field(foreign_key="users.id", index=True, ondelete="CASCADE")
    # The authenticator's credential id and COSE public key, base64url: public values.
    credential_id: str = Field(max_length=1400, unique=True)
    public_key: str = Field(max_length=2800)
    # The authenticator's signature counter: an assertion must bring a greater one (or both 0).
    sign_count: int = Field(default=0, sa_type=sa.BigInteger)
    name: str = Field(max_length=100)
    created_at: datetime = Field(default_factory=utcnow)
    last_used_at: datetime | None = Field(default=None)


class WebAuthnChallenge(SQLModel, table=True):
    """The challenge of a passkey ceremony under way: kept here, not in the browser, spent by
    the answer that brings it (or expired after a few minutes)."""

    __tablename__ = "webauthn_challenges"

    id: str = Field(primary_key=True, max_length=64)  # SHA-256 of the token the portal holds
    # The user it is for: the registering user, or a pending login's; None for a login by a
    # discoverable credential, whose user the credential names.
    user_id: uuid.UUID | None = Field(
        default=None, foreign_key="users.id", nullable=True, ondelete="CASCADE"
    )
    purpose: str = Field(max_length=20)
    challenge: str = Field(max_length=100)  # base64url
    expires_at: datetime = Field(index=True)
