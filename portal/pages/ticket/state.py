"""A ticket's page (spec 2, Ticket detail), loaded from the id of the URL; a missing one stops
there: no breadcrumbs, no further calls. Then its conversation (issue 49): the newest messages,
marked read once shown, and the reply box (Markdown previewed with the portal's own renderer
and sanitiser, files chosen or dropped, the text kept when the provider refuses it)."""

from collections.abc import Sequence

import reflex as rx
from reflex.event import EventSpec

from portal.client import ProviderClient, ProviderError
from portal.components.tickets.files import FileChoice, attach_all
from portal.i18n import N_, gettext
from portal.markup import render_markdown
from portal.pages.ticket.models import Attachment, MessageView, TicketDetail
from portal.state.failures import reports_failures
from portal.state.item_page import ItemPageState
from portal.state.session import SessionState

UPLOAD_ID = "ticket-reply-files"
REPLY_MAX = 20_000
EMPTY_REPLY = N_("Write a message to send (files go with a message).")


class TicketState(FileChoice, ItemPageState, SessionState):
    upload_id = UPLOAD_ID
    ticket: rx.Field[TicketDetail] = rx.field(default_factory=TicketDetail)
    description_open: rx.Field[bool] = rx.field(True)
    messages: rx.Field[list[MessageView]] = rx.field(default_factory=list)
    # Messages older than those shown (a conversation past a hundred).
    earlier_count: rx.Field[int] = rx.field(0)
    messages_loading: rx.Field[bool] = rx.field(False)
    reply: rx.Field[str] = rx.field("")
    # The reply as it will read, while Preview is chosen.
    preview: rx.Field[str] = rx.field("")
    previewing: rx.Field[bool] = rx.field(False)
    # Why the reply or one of its files was refused, kept with the text.
    reply_errors: rx.Field[list[str]] = rx.field(default_factory=list)
    sending: rx.Field[bool] = rx.field(False)
    changing_status: rx.Field[bool] = rx.field(False)

    @rx.var
    def conversation_files(self) -> list[Attachment]:
        """The files of the messages shown, for the attachments card: a file sent with a
        reply is the ticket's too (docs/decisions/ticket-attachments.md)."""
        return [file for message in self.messages for file in message.attachments]

    def _shown_id(self) -> str:
        return self.ticket.id

    def _show(self, item: TicketDetail | None) -> None:
        if item is None or item.id != self.ticket.id:
            self.messages, self.earlier_count = [], 0
            self.reply, self.preview, self.previewing, self.reply_errors = "", "", False, []
            self.files, self.files_error = [], ""
        self.ticket = item or TicketDetail()
        self.description_open = True

    async def _fetch(self, client: ProviderClient, item_id: str) -> TicketDetail:
        return TicketDetail.of(
            await client.tickets.get(item_id), self.current_language, self.time_zone
        )

    def _then(self) -> Sequence[EventSpec]:
        if self.files:
            return [TicketState.load_messages]
        # The browser keeps the files chosen in a field across pages: those chosen on the
        # ticket shown before would otherwise go with this ticket's next reply.
        return [rx.clear_selected_files(UPLOAD_ID), TicketState.load_messages]

    @rx.event
    def toggle_description(self):
        self.description_open = not self.description_open

    async def _read_messages(self, client: ProviderClient) -> None:
        page = await client.tickets.latest_messages(self.ticket.id)
        language, zone = self.current_language, self.time_zone
        self.messages = [MessageView.of(message, language, zone) for message in page.items]
        self.earlier_count = max(0, page.total - len(page.items))

    @rx.event
    @reports_failures
    async def load_messages(self):
        """The newest messages (the view brings the last into view), then the conversation
        marked read."""
        if not self.ticket.id:
            return
        self.messages_loading = True
        yield
        try:
            client = await self.provider()
            await self._read_messages(client)
        finally:
            self.messages_loading = False
        await client.tickets.mark_read(self.ticket.id)

    @rx.event
    def set_reply(self, value: str):
        self.reply = value

    @rx.event
    def set_previewing(self, previewing: bool):
        """Write or Preview: the preview is rendered here, by the renderer and sanitiser the
        provider uses (portal/markup.py); the message's own HTML comes from the provider."""
        self.previewing = previewing
        self.preview = render_markdown(self.reply) if previewing else ""

    @rx.event
    @reports_failures
    async def send_reply(self, files: list[rx.UploadFile]):
        """Posts the reply, then each file to it; what is refused is said with the text kept."""
        if self.sending:
            return
        language = self.current_language
        body = self.reply.strip()
        if not body:
            self.reply_errors = [gettext(language, EMPTY_REPLY)]
            return
        self.sending, self.reply_errors = True, []
        yield
        try:
            client = await self.provider()
            try:
                message = await client.tickets.post_message(self.ticket.id, body)
            except ProviderError as error:
                if error.code == 401 or error.code >= 500:
                    raise
                # 409 closed, 413 too long, 422, 429 too many: said here, the text kept.
                self.reply_errors = [error.message]
                return
            refused = await attach_all(client, self.ticket.id, files, language, message=message.id)
            self.reply, self.preview, self.previewing = "", "", False
            self.files, self.reply_errors = [], refused
            yield rx.clear_selected_files(UPLOAD_ID)
            await self._read_messages(client)
        finally:
            self.sending = False
        await client.tickets.mark_read(self.ticket.id)

    @rx.event
    @reports_failures(shown=True)
    async def set_status(self, status: str):
        """Asks to close the ticket, or reopens it; the page shows what the provider answers."""
        if status not in ("closed", "open") or self.changing_status:
            return
        self.changing_status = True
        yield
        try:
            client = await self.provider()
            await client.tickets.set_status(
                self.ticket.id, "closed" if status == "closed" else "open"
            )
            # Read again as the page reads it: the item route's answer has the description.
            self.ticket = await self._fetch(client, self.ticket.id)
        finally:
            self.changing_status = False
