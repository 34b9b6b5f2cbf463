"""The tickets list (spec 2, Tickets): tiles, filters bound to the URL, the page of tickets,
and the view mode remembered in the browser (spec 4, Browser storage)."""

import asyncio

import reflex as rx

from portal.client import ProviderClient
from portal.client.models import TicketFilters
from portal.components.cards_or_table import CardsOrTable, view_mode_storage
from portal.components.paging import ASCENDING, DESCENDING
from portal.components.ticket_status import NOT_CLOSED
from portal.components.tickets.query import TICKETS_URL
from portal.components.tickets.state import TicketList
from portal.state.failures import reports_failures
from portal.state.session import SessionState

OPEN = TicketFilters.model_validate({"statuses": list(NOT_CLOSED)})
ACTIVE = TicketFilters(statuses=["active"])
CLOSED = TicketFilters(statuses=["closed"])


class TicketsState(TicketList, CardsOrTable, SessionState):
    view_mode: str = view_mode_storage("tickets")
    open_count: rx.Field[int] = rx.field(0)
    active_count: rx.Field[int] = rx.field(0)
    closed_count: rx.Field[int] = rx.field(0)
    counting: rx.Field[bool] = rx.field(True)

    async def _open(self, client: ProviderClient) -> None:
        """The tiles' counts: open (every status but closed), active and closed (spec 2)."""
        self.counting = True
        try:
            counts = await asyncio.gather(
                client.tickets.count(OPEN),
                client.tickets.count(ACTIVE),
                client.tickets.count(CLOSED),
            )
        finally:
            self.counting = False
        self.open_count, self.active_count, self.closed_count = counts

    @rx.event
    @reports_failures
    async def sort_cards_by(self, field: str):
        """The card mode's sort-by select: the field, in the direction already chosen."""
        if field not in TICKETS_URL.sort_fields:
            return
        self.sort_field, self.page = field, 1
        async for update in self._reload():
            yield update

    @rx.event
    @reports_failures
    async def flip_direction(self):
        """The card mode's ascending/descending toggle."""
        self.sort_direction = ASCENDING if self.sort_direction == DESCENDING else DESCENDING
        self.page = 1
        async for update in self._reload():
            yield update
