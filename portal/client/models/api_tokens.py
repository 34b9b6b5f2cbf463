"""The signed-in user's personal API tokens (issue 51)."""

import datetime as dt

from pydantic import Field

from portal.client.models.base import Entity


class PersonalToken(Entity):
    name: str = ""
    scopes: list[str] = Field(default_factory=list)
    created_at: dt.datetime | None = None
    last_used_at: dt.datetime | None = None
    expires_at: dt.datetime | None = None
    revoked_at: dt.datetime | None = None
    # ``active``, ``expired`` or ``revoked``.
    state: str = ""
    # The value, in the creation's answer only.
    token: str = ""
