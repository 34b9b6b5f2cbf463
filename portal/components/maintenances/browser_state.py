"""The state of maintenances shown as a list or a calendar (spec 2: the dashboard's
maintenances card and the maintenances view), with the choice kept in the browser (spec 4).

A page subclasses ``MaintenanceBrowser`` and passes it to ``maintenances_browser``: the table
pages and sorts like any list; the calendar asks for the period it shows, and only that period
(``dateEnd[after]`` its start, ``dateStart[before]`` its end), page after page.
"""

from datetime import datetime

import reflex as rx

from portal.client import ProviderClient
from portal.client.models import Maintenance, MaintenancePeriod
from portal.components.maintenances.models import CalendarEvent
from portal.components.maintenances.state import MaintenanceList
from portal.state.failures import reports_failures

LIST, CALENDAR = "table", "calendar"
# The provider's documented page size limit (ITEMS_PER_PAGE_MAX), and how many pages a period
# may take: 1 000 windows in one month view is more than anyone reads.
PERIOD_PAGE_SIZE = 100
PERIOD_MAX_PAGES = 10


class MaintenanceViewPreference(rx.State):
    """List or calendar: one choice for every page that offers both, kept in the browser."""

    mode: str = rx.LocalStorage(LIST, name="patchbay.maintenances.view", sync=True)

    @rx.event
    def set_mode(self, mode: str | list[str]):
        self.mode = CALENDAR if mode == CALENDAR else LIST


async def period_maintenances(
    client: ProviderClient, start: datetime, end: datetime
) -> list[Maintenance]:
    """Every maintenance overlapping ``[start, end)``, first starts first."""
    period = MaintenancePeriod(ends_after=start, starts_before=end)
    found: list[Maintenance] = []
    for number in range(1, PERIOD_MAX_PAGES + 1):
        page = await client.maintenances.list(
            period,
            page=number,
            items_per_page=PERIOD_PAGE_SIZE,
            order={"dateStart": "asc"},
        )
        found += page.items
        if number >= page.page_count:
            break
    return found


class MaintenanceBrowser(MaintenanceList, mixin=True):
    calendar_events: rx.Field[list[CalendarEvent]] = rx.field(default_factory=list)
    calendar_loading: rx.Field[bool] = rx.field(False)

    @rx.event
    @reports_failures
    async def show_period(self, start: str, end: str):
        """The calendar moved to another period: its maintenances, and nothing else."""
        try:
            begin, finish = datetime.fromisoformat(start), datetime.fromisoformat(end)
        except ValueError:
            return
        self.calendar_loading = True
        yield
        try:
            found = await period_maintenances(await self.provider(), begin, finish)
        finally:
            self.calendar_loading = False
        self.calendar_events = [CalendarEvent.of(maintenance) for maintenance in found]
