"""Files chosen for a ticket or a reply (issue 49): kept in the browser until the form is sent,
their names shown as chips; the new ticket form and the reply box each hold one choice.

The provider decides the type by content; the portal refuses at once what it can tell from the
browser's word: more than ``MAX_FILES``, or a file over ``TICKET_ATTACHMENT_MAX_BYTES`` (which
would otherwise travel to the portal and on to the provider to be refused there).
"""

from typing import Any, ClassVar

import reflex as rx
from pydantic import BaseModel
from reflex.vars import ObjectVar

from portal.client import ProviderClient, ProviderError
from portal.components.file_input import files_input
from portal.components.i18n import _
from portal.i18n import N_, format_number, gettext
from portal.settings import get_settings
from portal.state.session import SessionState

MAX_FILES = 10  # issue 49: up to 10 attachments
TOO_MANY_FILES = N_("At most {max} files can be attached.")
FILE_REFUSED = N_("{name} was not attached: {reason}")
FILE_TOO_LARGE = N_("{name} is larger than the limit of {max} MB.")
MEGABYTE = 1024 * 1024
KILOBYTE = 1024


class ChosenFile(BaseModel):
    name: str = ""
    size: str = ""


def size_text(size: int, language: str) -> str:
    """``12 KB``, ``1.5 MB``: a file's size as its chip shows it."""
    if size < KILOBYTE * KILOBYTE:
        return f"{format_number(max(1, round(size / KILOBYTE)), language)} KB"
    return f"{format_number(round(size / KILOBYTE / KILOBYTE, 1), language)} MB"


async def attach_all(
    client: ProviderClient,
    ticket_id: str,
    files: list[rx.UploadFile],
    language: str,
    *,
    message: str = "",
) -> list[str]:
    """Sends each uploaded file to the ticket (to ``message`` when given), streamed from the
    upload's spool; what the provider refuses (type, size, count) is said, one line a file.
    An ended session is no refusal: it goes on to the caller."""
    refused = []
    for sent in files:
        name = sent.name or ""
        content_type = sent.content_type or "application/octet-stream"
        try:
            await client.tickets.attach(ticket_id, name, sent.file, content_type, message=message)
        except ProviderError as error:
            if error.code == 401:
                raise
            refused.append(gettext(language, FILE_REFUSED, name=name, reason=error.message))
    return refused


class FileChoice(SessionState, mixin=True):
    """The files chosen in one field (``upload_id`` names it in the browser)."""

    upload_id: ClassVar[str] = ""
    files: rx.Field[list[ChosenFile]] = rx.field(default_factory=list)
    files_error: rx.Field[str] = rx.field("")

    @rx.event
    def add_files(self, added: list[dict[str, Any]]):
        """The files just chosen or dropped join the others, up to ``MAX_FILES`` and each within
        the size limit: past either, the choice is let go of and the user told why."""
        self.files_error = ""
        language = self.current_language
        limit = get_settings().ticket_attachment_max_bytes
        too_large = [file for file in added if int(file.get("size", 0)) > limit]
        if len(self.files) + len(added) > MAX_FILES:
            return self._let_go(gettext(language, TOO_MANY_FILES, max=MAX_FILES))
        if too_large:
            name, megabytes = str(too_large[0].get("name", "")), f"{limit / MEGABYTE:g}"
            return self._let_go(gettext(language, FILE_TOO_LARGE, name=name, max=megabytes))
        self.files = self.files + [
            ChosenFile(
                name=str(file.get("name", "")), size=size_text(int(file.get("size", 0)), language)
            )
            for file in added
        ]
        return None

    def _let_go(self, reason: str):
        """Lets go of every file chosen, in the state and in the browser, and says why."""
        self.files, self.files_error = [], reason
        return rx.clear_selected_files(self.upload_id)

    @rx.event
    def clear_files(self):
        self.files, self.files_error = [], ""
        return rx.clear_selected_files(self.upload_id)


def _chip(file: ObjectVar[ChosenFile]) -> rx.Component:
    return rx.badge(
        rx.icon("paperclip", size=14),
        file.name,
        rx.text(file.size, as_="span", color=rx.color("gray", 11)),
        variant="soft",
        radius="full",
        size="2",
        max_width="100%",
        overflow="hidden",
        data_testid="chosen-file",
    )


def file_chooser(state: type[FileChoice], upload_id: str, *, compact: bool = False) -> rx.Component:
    """A drop zone with the browser's file input stretched over it, invisible (a click opens
    the picker, dropped files land in it), the chips of the files chosen and "Remove files"."""
    zone = rx.box(
        rx.hstack(
            rx.icon("paperclip", size=18, color=rx.color("purple", 9)),
            rx.text(
                _("Drop files here or click to choose them (at most 10)"),
                size="2",
                color=rx.color("gray", 11),
            ),
            align="center",
            justify="center",
            spacing="2",
        ),
        files_input(
            upload_id,
            state.add_files,
            aria_label=_("Attach files"),
            position="absolute",
            inset="0",
            width="100%",
            height="100%",
            opacity="0",
            cursor="pointer",
        ),
        position="relative",
        border=f"2px dashed {rx.color('gray', 7)}",
        border_radius="var(--radius-3)",
        padding="8px" if compact else "16px",
        width="100%",
        _focus_within={"outline": f"2px solid {rx.color('purple', 8)}"},
        _hover={"border_color": rx.color("purple", 8)},
        data_testid=f"{upload_id}-zone",
    )
    return rx.vstack(
        zone,
        rx.cond(
            state.files_error != "",
            rx.text(state.files_error, size="1", color=rx.color("red", 11), role="alert"),
        ),
        rx.cond(
            state.files.length() > 0,
            rx.flex(
                rx.foreach(state.files, _chip),
                rx.button(
                    rx.icon("x", size=14),
                    _("Remove files"),
                    type="button",
                    variant="ghost",
                    color_scheme="gray",
                    size="1",
                    on_click=state.clear_files,
                ),
                wrap="wrap",
                spacing="2",
                align="center",
                width="100%",
            ),
        ),
        spacing="2",
        width="100%",
    )
