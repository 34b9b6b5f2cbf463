"""Stacked messages (spec 2, 8 and 9): temporary ones go after 5 s, permanent ones stay, and
a message equal in text, type and permanence to one already shown is not shown twice."""

import asyncio
import itertools
from typing import Literal

import reflex as rx
from pydantic import BaseModel

from portal.client import ProviderError
from portal.i18n import gettext

MessageKind = Literal["success", "info", "warning", "error"]
TEMPORARY_SECONDS = 5.0
_ids = itertools.count(1)


class Message(BaseModel):
    id: int
    text: str
    kind: str
    permanent: bool


class MessagesState(rx.State):
    messages: rx.Field[list[Message]] = rx.field(default_factory=list)

    def show(self, text: str, kind: MessageKind = "info", *, permanent: bool = False):
        """Adds a message; returns the event that will expire it, to be returned or yielded."""
        if any((m.text, m.kind, m.permanent) == (text, kind, permanent) for m in self.messages):
            return None
        message = Message(id=next(_ids), text=text, kind=kind, permanent=permanent)
        self.messages = [*self.messages, message]
        return None if permanent else MessagesState.expire(message.id)

    def show_error(self, error: ProviderError, language: str):
        """The one message handler of spec section 8 for a failed provider call."""
        if error.code == 401:
            return None
        if error.code == 403:
            if error.error_code == "required_terms":
                return self.show(
                    gettext(language, "Please accept the terms and conditions of use."),
                    "error",
                    permanent=True,
                )
            return None
        if error.code == 0:
            return self.show(
                gettext(language, "The service cannot be reached. Please try again shortly."),
                "error",
            )
        if error.code >= 500:
            return self.show(
                gettext(
                    language,
                    "An unexpected error has occurred. If the error persists, "
                    "please contact support.",
                ),
                "error",
            )
        return self.show(error.message, "error")

    def clear_temporary(self) -> None:
        if any(not m.permanent for m in self.messages):
            self.messages = [m for m in self.messages if m.permanent]

    def clear_all(self) -> None:
        self.messages = []

    @rx.event
    def dismiss(self, message_id: int):
        self.messages = [m for m in self.messages if m.id != message_id]

    @rx.event(background=True)
    async def expire(self, message_id: int):
        await asyncio.sleep(TEMPORARY_SECONDS)
        async with self:
            self.messages = [m for m in self.messages if m.id != message_id]
