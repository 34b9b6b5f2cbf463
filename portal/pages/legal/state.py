"""Accepting the terms of use (spec 2 and 4): the box must be ticked, the provider records the
acceptance, and the user goes home without the permanent reminder of spec 8."""

import reflex as rx

from portal import routes
from portal.client import ProviderError
from portal.i18n import LANGUAGES, N_, gettext
from portal.state.messages import MessagesState
from portal.state.session import SessionState

# The permanent message of spec 8 shown after a 403 required_terms.
TERMS_REMINDER = N_("Please accept the terms and conditions of use.")


class TermsState(SessionState):
    terms_ticked: bool = False
    accepting: bool = False

    @rx.event
    def set_terms_ticked(self, ticked: bool):
        self.terms_ticked = ticked

    @rx.event
    async def accept(self):
        if not self.terms_ticked or self.accepting:
            return
        self.accepting = True
        yield
        try:
            await (await self.provider()).users.accept_terms(self.user_id)
        except ProviderError as error:
            self.accepting = False
            yield await self.report(error)
            return
        self.has_accepted_terms = True
        self.terms_ticked = False
        self.accepting = False
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
