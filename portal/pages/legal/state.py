"""Accepting the terms of use (spec 2 and 4): the box must be ticked, the provider records the
acceptance, and the user goes home without the permanent reminder of spec 8."""

import reflex as rx

from portal import routes
from portal.i18n import LANGUAGES, gettext
from portal.state.failures import reports_failures
from portal.state.messages import TERMS_REMINDER, MessagesState
from portal.state.session import SessionState


class TermsState(SessionState):
    terms_ticked: bool = False
    accepting: bool = False

    @rx.event
    def set_terms_ticked(self, ticked: bool):
        self.terms_ticked = ticked

    @rx.event
    @reports_failures
    async def accept(self):
        if not self.terms_ticked or self.accepting:
            return
        self.accepting = True
        yield
        try:
            await (await self.provider()).users.accept_terms(self.user_id)
        finally:
            self.accepting = False
        self.has_accepted_terms = True
        self.terms_ticked = False
        await self._withdraw_reminder()
        yield rx.redirect(routes.HOME.path)

    async def _withdraw_reminder(self) -> None:
        # The reminder was written in the language of its moment, which the user may since have
        # switched: both translations are looked for.
        reminders = {gettext(language, TERMS_REMINDER) for language in LANGUAGES}
        messages = await self.get_state(MessagesState)
        messages.messages = [
            m for m in messages.messages if not (m.permanent and m.text in reminders)
        ]
