"""Support tickets: the filtered list and one ticket with its attachments."""

from collections.abc import Iterable, Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.tickets import Ticket, TicketFilters
from portal.client.resources.base import Resource

TICKETS = "/api/tickets"


class TicketsResource(Resource):
    async def list(
        self,
        filters: TicketFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
    ) -> Page[Ticket]:
        return await self._list(
            Ticket,
            TICKETS,
            page=page,
            items_per_page=items_per_page,
            order=order,
            filters=filters,
        )

    async def count(self, filters: TicketFilters) -> int:
        """How many tickets match: a page of none (``itemsPerPage=0``), its total read."""
        return (await self.list(filters, items_per_page=0)).total

    async def get(self, uuid: str, includes: Iterable[str] = ()) -> Ticket:
        return await self._get(Ticket, f"{TICKETS}/{uuid}", includes=includes)
