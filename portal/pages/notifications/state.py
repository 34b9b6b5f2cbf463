"""What the Notifications page knows: the user's preferences as saved and as chosen on the
page.

Saving sends only what the user changed: the provider takes a language or time zone sent as the
user's choice, after which a sign-in no longer sets the browser's."""

import reflex as rx

from portal.client import ProviderError, ValidationFailed
from portal.client.models.notifications import NotificationPreferences, PreferencesChange
from portal.i18n import N_, gettext, match_language
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState, failure_text
from portal.state.session import SessionState

SAVED = N_("Your notification preferences have been saved.")


class NotificationsState(SessionState):
    loaded: rx.Field[bool] = rx.field(False)
    failure: rx.Field[str] = rx.field("")
    maintenance_notices: rx.Field[str] = rx.field("all")
    ticket_notices: rx.Field[str] = rx.field("opened")
    mail_language: rx.Field[str] = rx.field("en")
    mail_time_zone: rx.Field[str] = rx.field("UTC")
    time_zone_error: rx.Field[str] = rx.field("")
    saving: rx.Field[bool] = rx.field(False)
    _saved: NotificationPreferences = NotificationPreferences()

    @rx.var
    def changed(self) -> bool:
        return bool(self._change().body())

    def _change(self) -> PreferencesChange:
        saved = self._saved
        return PreferencesChange(
            maintenance_notices=_if_changed(self.maintenance_notices, saved.maintenance_notices),
            ticket_notices=_if_changed(self.ticket_notices, saved.ticket_notices),
            language=_if_changed(self.mail_language, saved.language),
            time_zone=_if_changed(self.mail_time_zone, saved.time_zone),
        )

    def _show(self, preferences: NotificationPreferences) -> None:
        self._saved = preferences
        self.maintenance_notices = preferences.maintenance_notices
        self.ticket_notices = preferences.ticket_notices
        self.mail_language = match_language(preferences.language)
        self.mail_time_zone = preferences.time_zone
        self.time_zone_error = ""

    @rx.event
    @reports_failures(in_place=True)
    async def load(self):
        self.loaded, self.failure = False, ""
        if not self._page_open():
            return
        try:
            client = await self.provider()
            self._show(await client.notifications.preferences())
        except ProviderError as error:
            self.failure = failure_text(error, self.current_language)
            raise
        self.loaded = True

    @rx.event
    def set_maintenance_notices(self, value: str):
        self.maintenance_notices = value

    @rx.event
    def set_ticket_notices(self, value: str):
        self.ticket_notices = value

    @rx.event
    def set_mail_language(self, value: str):
        self.mail_language = match_language(value)

    @rx.event
    def set_mail_time_zone(self, value: str):
        self.mail_time_zone, self.time_zone_error = value, ""

    @rx.event
    @reports_failures(shown=True)
    async def save(self, _form: dict):
        change = self._change()
        if self.saving or not change.body():
            return
        self.saving = True
        yield
        try:
            saved = await (await self.provider()).notifications.update_preferences(change)
        except ValidationFailed as error:
            by_field = error.by_field()
            self.time_zone_error = " ".join(by_field.pop("timeZone", []))
            if by_field:
                raise
            return
        finally:
            self.saving = False
        self._show(saved)
        messages = await self.get_state(MessagesState)
        messages.show(gettext(self.current_language, SAVED), "success")


def _if_changed(value: str, saved: str) -> str | None:
    return value if value != saved else None
