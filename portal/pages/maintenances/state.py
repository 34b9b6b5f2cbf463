"""The maintenances view: every maintenance touching the user's services, as a list (paging and
sort in the URL) or a calendar, and the user's private calendar feed (customers only: a staff
member's would hold every customer's maintenances)."""

import reflex as rx

from portal import routes
from portal.client import ProviderClient
from portal.client.models import CalendarFeed
from portal.components.maintenances.browser_state import MaintenanceBrowser
from portal.connections import backend_url
from portal.i18n import format_moment
from portal.permissions import is_staff
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.session import SessionState


def feed_url(path: str) -> str:
    """The address calendar programs fetch: the portal's public one (in development, the
    backend's, which serves the portal's own routes)."""
    url = backend_url(path)
    return get_settings().portal_public_url.rstrip("/") + url if url.startswith("/") else url


class MaintenancesState(MaintenanceBrowser, SessionState):
    """The list's paging and sort are in the URL; the calendar asks for its own period."""


class CalendarFeedState(SessionState):
    active: rx.Field[bool] = rx.field(False)
    created: rx.Field[str] = rx.field("")
    last_read: rx.Field[str] = rx.field("")
    # The feed's URL, only right after it was made: the provider keeps only the token's hash.
    url: rx.Field[str] = rx.field("")
    busy: rx.Field[bool] = rx.field(False)
    copied: rx.Field[bool] = rx.field(False)

    @rx.var
    def offered(self) -> bool:
        """Customers have a feed; staff read every customer's maintenances on this page."""
        return not is_staff(self.roles)

    def _show(self, feed: CalendarFeed) -> None:
        language, zone = self.current_language, self.time_zone
        self.active = feed.active
        self.created = format_moment(feed.created_at, language, zone)
        self.last_read = format_moment(feed.last_used_at, language, zone)
        self.url = feed_url(routes.calendar_feed_path(feed.token)) if feed.token else ""
        self.copied = False

    async def _call(self, action: str) -> CalendarFeed:
        client: ProviderClient = await self.provider()
        if action == "new":
            return await client.maintenances.new_calendar_feed()
        if action == "stop":
            await client.maintenances.revoke_calendar_feed()
            return CalendarFeed()
        return await client.maintenances.calendar_feed()

    @rx.event
    @reports_failures
    async def load(self):
        if not self._page_open() or is_staff(self.roles):
            return
        self.url = ""
        self._show(await self._call("read"))

    @rx.event
    @reports_failures(shown=True)
    async def make(self):
        """A new link; the previous one stops working at once."""
        self.busy = True
        yield
        try:
            self._show(await self._call("new"))
        finally:
            self.busy = False

    @rx.event
    @reports_failures(shown=True)
    async def stop(self):
        self.busy = True
        yield
        try:
            self._show(await self._call("stop"))
        finally:
            self.busy = False

    @rx.event
    def copy(self):
        self.copied = True
        return rx.set_clipboard(self.url)
