"""A ticket's page (spec 2, Ticket detail), loaded from the id of the URL; a missing one stops
there: no breadcrumbs, no further calls."""

import reflex as rx

from portal.client import ProviderClient
from portal.pages.ticket.models import TicketDetail
from portal.state.item_page import ItemPageState
from portal.state.session import SessionState


class TicketState(ItemPageState, SessionState):
    ticket: rx.Field[TicketDetail] = rx.field(default_factory=TicketDetail)
    description_open: rx.Field[bool] = rx.field(True)

    def _shown_id(self) -> str:
        return self.ticket.id

    def _show(self, item: TicketDetail | None) -> None:
        self.ticket = item or TicketDetail()
        self.description_open = True

    async def _fetch(self, client: ProviderClient, item_id: str) -> TicketDetail:
        return TicketDetail.of(
            await client.tickets.get(item_id), self.current_language, self.time_zone
        )

    @rx.event
    def toggle_description(self):
        self.description_open = not self.description_open
