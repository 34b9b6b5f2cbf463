"""The signed-in user's notification preferences and a company's extra notice addresses
(issue 50, item 4)."""

from datetime import datetime
from typing import Literal

from portal.client.models.base import ProviderModel

MaintenanceNotices = Literal["all", "none"]
TicketNotices = Literal["opened", "all", "none"]


class NotificationPreferences(ProviderModel):
    maintenance_notices: MaintenanceNotices = "all"
    ticket_notices: TicketNotices = "opened"
    language: str = "en"
    time_zone: str = "UTC"
    # False while each login sets the browser's.
    language_chosen: bool = False
    time_zone_chosen: bool = False


class PreferencesChange(ProviderModel):
    """A merge-patch of the preferences: the fields left ``None`` stay as they are."""

    maintenance_notices: MaintenanceNotices | None = None
    ticket_notices: TicketNotices | None = None
    language: str | None = None
    time_zone: str | None = None

    def body(self) -> dict[str, object]:
        return self.model_dump(by_alias=True, mode="json", exclude_none=True)


class NoticeAddress(ProviderModel):
    """A NOC mailbox of a company that takes its maintenance notices once confirmed."""

    id: str
    email: str
    language: str = "en"
    time_zone: str = "UTC"
    created_at: datetime
    # None until the link sent to the address is followed: nothing else goes there before.
    confirmed_at: datetime | None = None
