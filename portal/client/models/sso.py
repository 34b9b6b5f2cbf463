"""Single sign-on per company with OpenID Connect (issue 52): a company's settings as an
administrator reads them (never the client secret), and the steps of a login."""

import datetime as dt

from pydantic import Field

from portal.client.models.base import ProviderModel


class SsoSettings(ProviderModel):
    configured: bool = False
    issuer: str = ""
    client_id: str = ""
    has_client_secret: bool = False
    domains: list[str] = Field(default_factory=list)
    password_allowed: bool = True
    create_users: bool = False
    default_roles: list[str] = Field(default_factory=list)
    updated_at: dt.datetime | None = None


class SsoLookup(ProviderModel):
    sso: bool = False
    password_allowed: bool = True


class SsoStart(ProviderModel):
    authorization_url: str
    state: str
