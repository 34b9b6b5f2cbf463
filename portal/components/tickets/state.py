"""The tickets of a list (spec 2): newest first by default. The tickets screen binds it to its
URL; the dashboard shows the last ones."""

from typing import Any, ClassVar

import reflex as rx

from portal.client import Page, ProviderClient
from portal.client.models import TicketFilters
from portal.components.paging import Paging
from portal.components.tickets.models import TicketRow
from portal.components.tickets.query import TICKETS_URL
from portal.list_query import ListUrl
from portal.state.lists import ListState


class TicketList(ListState, mixin=True):
    """A list of tickets; each page using one subclasses it."""

    url: ClassVar[ListUrl[TicketFilters]] = TICKETS_URL
    filters: rx.Field[TicketFilters] = rx.field(default_factory=TicketFilters)
    rows: rx.Field[list[TicketRow]] = rx.field(default_factory=list)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        page = await client.tickets.list(self.filters, **paging.arguments())
        language = self.current_language
        self.rows = [TicketRow.of(ticket, language, self.time_zone) for ticket in page.items]
        return page
