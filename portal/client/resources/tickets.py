"""Support tickets: the filtered list, one ticket with its attachments, and the customer's side
of a conversation (issue 49): open a ticket, read and post messages, attach files, ask to close
or reopen, and say the conversation was read."""

from collections.abc import Iterable, Mapping
from typing import IO, Literal

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.tickets import (
    MessageFile,
    NewTicket,
    Ticket,
    TicketFilters,
    TicketMessage,
)
from portal.client.resources.base import Resource
from portal.client.resources.users import MERGE_PATCH

TICKETS = "/api/tickets"
# The conversation's page (the provider's maximum, 100).
MESSAGES_PER_PAGE = 100


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

    async def create(self, ticket: NewTicket) -> Ticket:
        """Opens a ticket: status open, the caller its requester."""
        return await self._send(Ticket, "POST", TICKETS, json=ticket.body())

    async def messages(
        self, uuid: str, *, page: int = 1, items_per_page: int = MESSAGES_PER_PAGE
    ) -> Page[TicketMessage]:
        """One page of the conversation, oldest first."""
        return await self._list(
            TicketMessage,
            f"{TICKETS}/{uuid}/messages",
            page=page,
            items_per_page=items_per_page,
        )

    async def latest_messages(
        self, uuid: str, limit: int = MESSAGES_PER_PAGE
    ) -> Page[TicketMessage]:
        """The newest ``limit`` messages, oldest first, and how many the conversation holds:
        one call for a conversation that fits, else the last page, after the one before it
        when the last is not full."""
        first = await self.messages(uuid, items_per_page=limit)
        if first.total <= limit:
            return first
        last = await self.messages(uuid, page=first.page_count, items_per_page=limit)
        items = last.items
        if len(items) < limit:
            before = await self.messages(uuid, page=first.page_count - 1, items_per_page=limit)
            items = (before.items + items)[-limit:]
        return Page(items=items, total=last.total, page=last.page, items_per_page=limit)

    async def post_message(self, uuid: str, body: str) -> TicketMessage:
        """A reply in Markdown; the provider renders and sanitises it."""
        return await self._send(
            TicketMessage, "POST", f"{TICKETS}/{uuid}/messages", json={"body": body}
        )

    async def attach(
        self,
        uuid: str,
        filename: str,
        content: bytes | IO[bytes],
        content_type: str,
        *,
        message: str = "",
    ) -> MessageFile:
        """Uploads one file, to a message of the ticket or (without ``message``) to the ticket
        itself. A file object is read and sent a chunk at a time, never whole in memory."""
        response = await self._client.request(
            "POST",
            f"{TICKETS}/{uuid}/attachments",
            files={"file": (filename, content, content_type)},
            data={"message": message} if message else None,
        )
        return self._parse(MessageFile, self._client.decode(response))

    async def set_status(self, uuid: str, status: Literal["closed", "open"]) -> Ticket:
        """Asks to close the ticket (``closed``) or reopens it (``open``)."""
        return await self._send(
            Ticket,
            "PATCH",
            f"{TICKETS}/{uuid}",
            json={"status": status},
            content_type=MERGE_PATCH,
        )

    async def mark_read(self, uuid: str) -> None:
        """The caller has seen the conversation up to now."""
        await self._client.request("PUT", f"{TICKETS}/{uuid}/read")
