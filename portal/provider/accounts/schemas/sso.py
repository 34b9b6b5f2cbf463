"""The JSON of single sign-on (issue 52, item 4): a company's settings as administrators write
and read them (never the client secret), and the three steps of a login."""

import datetime as dt

from pydantic import Field

from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import CompanySso


class SsoSettingsIn(ApiModel):
    issuer: str = Field(
        min_length=1, max_length=500, description="The issuer's URL (HTTPS): discovery below it."
    )
    client_id: str = Field(min_length=1, max_length=255)
    client_secret: str | None = Field(
        default=None,
        max_length=500,
        description="Required the first time; left out or null, the stored one is kept.",
    )
    domains: list[str] = Field(
        min_length=1, max_length=50, description="The e-mail domains covered (one company each)."
    )
    password_allowed: bool = Field(description="Whether the users may still use a password.")
    create_users: bool = Field(
        default=False, description="Whether an unknown user is created at first login."
    )
    default_roles: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="The roles of a user created at first login (a user manager's to give).",
    )


class SsoSettingsOut(ApiModel):
    configured: bool
    issuer: str = ""
    client_id: str = ""
    has_client_secret: bool = False
    domains: list[str] = Field(default_factory=list)
    password_allowed: bool = True
    create_users: bool = False
    default_roles: list[str] = Field(default_factory=list)
    updated_at: dt.datetime | None = None


def settings_out(config: CompanySso | None, domains: list[str]) -> SsoSettingsOut:
    if config is None:
        return SsoSettingsOut(configured=False)
    return SsoSettingsOut(
        configured=True,
        issuer=config.issuer,
        client_id=config.client_id,
        has_client_secret=bool(config.sealed_client_secret),
        domains=sorted(domains),
        password_allowed=config.password_allowed,
        create_users=config.create_users,
        default_roles=list(config.default_roles),
        updated_at=config.updated_at,
    )


class SsoLookupIn(ApiModel):
    email: str = Field(min_length=3, max_length=254)


class SsoLookupOut(ApiModel):
    sso: bool = Field(description="Whether single sign-on covers the e-mail's domain.")
    password_allowed: bool = Field(description="Whether a password may still be used.")


class SsoStartIn(ApiModel):
    email: str = Field(min_length=3, max_length=254)
    redirect_uri: str = Field(
        min_length=1, max_length=500, description="The portal's callback, on its own origin."
    )


class SsoStartOut(ApiModel):
    authorization_url: str = Field(description="Where to send the browser.")
    state: str = Field(description="What the callback must bring back.")


class SsoFinishIn(ApiModel):
    state: str = Field(min_length=1, max_length=200)
    code: str = Field(default="", max_length=2000)
    error: str = Field(
        default="", max_length=200, description="The identity provider's error, if it sent one."
    )
