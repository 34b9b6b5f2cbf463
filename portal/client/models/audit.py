"""The provider's audit log (issue 17, beyond the spec): what administrators read."""

import datetime as dt
from typing import Annotated

from pydantic import Field

from portal.client.filters import Filters, Param
from portal.client.models.base import Entity


class AuditEntry(Entity):
    at: dt.datetime | None = None
    action: str = ""
    actor_email: str | None = None
    subject_email: str | None = None
    impersonator_email: str | None = None
    client_address: str | None = None
    detail: dict[str, str] = Field(default_factory=dict)
    # Above 1 for the entry that counts an address's refusals beyond the first few of a window.
    count: int = 1


class AuditFilters(Filters):
    """The audit screen's filters: one action, part of an e-mail, a range of days."""

    ranges = (("after", "before"),)

    action: Annotated[str, Param("action")] = ""
    email: Annotated[str, Param("email")] = ""
    after: Annotated[dt.date | None, Param("at[after]", url="after")] = None
    before: Annotated[dt.date | None, Param("at[before]", url="before")] = None
