"""Single sign-on per company with OpenID Connect (issue 52, item 4): the company's identity
provider, the e-mail domains it covers, and the logins on their way through it."""

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from portal.provider.platform.models.columns import utcnow


class CompanySso(SQLModel, table=True):
    """A company's OpenID Connect identity provider, set by a provider administrator."""

    __tablename__ = "company_sso"

    company_id: uuid.UUID = Field(foreign_key="companies.id", primary_key=True, ondelete="CASCADE")
    # The issuer's URL: its discovery document is ``/.well-known/openid-configuration`` below it.
    issuer: str = Field(max_length=500)
    client_id: str = Field(max_length=255)
    # The client secret, sealed with SECOND_FACTOR_KEY (``portal.provider.accounts.sealing``).
    sealed_client_secret: str = Field(max_length=1000)
    # Whether the company's users may still log in with a password.
    password_allowed: bool = True
    # Whether a user unknown to the portal is created at their first login, with these roles.
    create_users: bool = False
    default_roles: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    updated_at: datetime = Field(default_factory=utcnow)


class SsoDomain(SQLModel, table=True):
    """An e-mail domain covered by a company's identity provider: at most one company each."""

    __tablename__ = "sso_domains"

    # Lower-case, without the ``@``.
    domain: str = Field(primary_key=True, max_length=253)
    company_id: uuid.UUID = Field(
        foreign_key="company_sso.company_id", index=True, ondelete="CASCADE"
    )


class SsoAttempt(SQLModel, table=True):
    """A login sent to the identity provider and not yet back (a few minutes): the ``state``
    names it (stored hashed), the ``nonce`` and the PKCE verifier wait here for the callback."""

    __tablename__ = "sso_attempts"

    id: str = Field(primary_key=True, max_length=64)  # SHA-256 of the state
    company_id: uuid.UUID = Field(
        foreign_key="company_sso.company_id", index=True, ondelete="CASCADE"
    )
    email: str = Field(max_length=254)
    nonce: str = Field(max_length=128)
    code_verifier: str = Field(max_length=128)
    # The portal's callback the identity provider returns to: the code exchange repeats it.
    redirect_uri: str = Field(max_length=500)
    expires_at: datetime = Field(index=True)
