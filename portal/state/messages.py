"""Stacked messages (spec 2, 8 and 9): temporary ones go after 5 s, permanent ones stay, and
a message equal in text, type and permanence to one already shown is not shown twice.

Showing a message only changes this state: its snackbar, once mounted in the browser, asks for
its own expiry (``expire`` on mount), so no caller has an event to pass on and none can lose it.
"""

import asyncio
import uuid
from typing import Literal

import reflex as rx
from pydantic import BaseModel
from reflex.event import EventSpec

from portal.client import (
    Forbidden,
    NetworkError,
    ProviderError,
    ServerError,
    Unauthorized,
    Unavailable,
)
from portal.i18n import N_, gettext

MessageKind = Literal["success", "info", "warning", "error"]
# What a helper answers for the browser (a redirect, a sign-out): the event handler that called
# it must return or yield it, or it is lost; ``tests/unit/test_event_flow.py`` watches for that.
Events = EventSpec | list[EventSpec] | None
TEMPORARY_SECONDS = 5.0
TERMS_REMINDER = N_("Please accept the terms and conditions of use.")
UNEXPECTED = N_("An unexpected error has occurred. If the error persists, please contact support.")
# A 503: the provider's database (or the provider itself) is down for a moment
# (docs/decisions/operations-faults.md).
UNAVAILABLE = N_("The service is temporarily unavailable. Please try again in a few moments.")


def failure_text(error: ProviderError, language: str) -> str:
    """What a failed call tells the user, on the screens and the signed-out forms alike: a 5xx
    the generic texts (with the reference support looks up, as after a network failure), a
    refusal with violations what each violation says (the form's own fields show theirs;
    elsewhere "The data sent is not valid." alone would not say what to change), anything
    else the error's own translated message."""
    if isinstance(error, Unavailable):
        text = gettext(language, UNAVAILABLE)
    elif isinstance(error, ServerError):
        text = gettext(language, UNEXPECTED)
    elif error.violations:
        text = " ".join(dict.fromkeys(violation.message for violation in error.violations))
    else:
        text = error.message
    if error.request_id and isinstance(error, ServerError | NetworkError):
        # What support looks up in the logs of both sides (docs/decisions/operations-logs.md).
        text += " " + gettext(language, "Reference: {reference}", reference=error.request_id)
    return text


class Message(BaseModel):
    # Unique across workers: several may add to one user's messages.
    id: str
    text: str
    kind: str
    permanent: bool


class MessagesState(rx.State):
    messages: rx.Field[list[Message]] = rx.field(default_factory=list)

    def show(self, text: str, kind: MessageKind = "info", *, permanent: bool = False) -> None:
        if any((m.text, m.kind, m.permanent) == (text, kind, permanent) for m in self.messages):
            return
        message = Message(id=uuid.uuid4().hex, text=text, kind=kind, permanent=permanent)
        self.messages = [*self.messages, message]

    def show_error(
        self,
        error: ProviderError,
        language: str,
        *,
        shown: bool = False,
        permanent: bool = False,
        in_place: bool = False,
    ) -> None:
        """The one message handler of spec 8 for a failed provider call, by the client's typed
        errors: a 401 says nothing (the session ends), a 403 for the terms is the permanent
        reminder, other 403s are silent unless ``shown`` (an action the user asked for), a 5xx
        is the generic text, anything else what ``failure_text`` says. ``in_place``: the screen
        shows that text itself, where the content failed; no message repeats it."""
        if isinstance(error, Unauthorized):
            return
        if isinstance(error, Forbidden):
            if error.requires_terms:
                self.show(gettext(language, TERMS_REMINDER), "error", permanent=True)
                return
            if not shown:
                return
        if not in_place:
            self.show(failure_text(error, language), "error", permanent=permanent)

    def clear_temporary(self) -> None:
        if any(not m.permanent for m in self.messages):
            self.messages = [m for m in self.messages if m.permanent]

    def clear_all(self) -> None:
        self.messages = []

    @rx.event
    def dismiss(self, message_id: str):
        self.messages = [m for m in self.messages if m.id != message_id]

    @rx.event(background=True)
    async def expire(self, message_id: str):
        """Sent by a snackbar when it appears: a temporary message goes 5 s later."""
        async with self:
            if not any(m.id == message_id and not m.permanent for m in self.messages):
                return
        await asyncio.sleep(TEMPORARY_SECONDS)
        async with self:
            self.messages = [m for m in self.messages if m.id != message_id]
