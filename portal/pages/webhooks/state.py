"""The Webhooks page (issue 51): a company's endpoints, registered in a dialog that shows the
signing secret once, rotated, disabled and enabled, deleted after a confirmation, sent a test
event, and each one's delivery log."""

import reflex as rx

from portal.client import ValidationFailed
from portal.components.company_picker import CompanyOption
from portal.components.confirm_dialog import Confirmation
from portal.i18n import N_, gettext
from portal.pages.webhooks.models import EVENT_TYPES, DeliveryRow, WebhookRow
from portal.state.failures import reports_failures
from portal.state.session import SessionState


class WebhooksState(Confirmation, SessionState):
    loaded: bool = False
    rows: rx.Field[list[WebhookRow]] = rx.field(default_factory=list)
    busy: bool = False
    # The registration dialog.
    form_open: bool = False
    url: str = ""
    description: str = ""
    events: rx.Field[list[str]] = rx.field(default_factory=list)
    # The user's companies, when there are several: the endpoint is the chosen one's.
    companies: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    company: str = ""
    company_error: str = ""
    url_error: str = ""
    events_error: str = ""
    # A secret just made (registration or rotation), shown this once, and for which URL.
    new_secret: str = ""
    secret_url: str = ""
    copied: bool = False
    # The delivery log shown, and whose.
    log_id: str = ""
    log_url: str = ""
    log_rows: rx.Field[list[DeliveryRow]] = rx.field(default_factory=list)

    @rx.event
    @reports_failures
    async def load(self):
        self.new_secret, self.copied, self.log_id = "", False, ""
        if not self._page_open():
            return
        await self._refresh()
        self.loaded = True

    async def _refresh(self) -> None:
        page = await (await self.provider()).webhooks.list()
        language, zone = self.current_language, self.time_zone
        self.rows = [WebhookRow.of(webhook, language, zone) for webhook in page.items]

    @rx.event
    @reports_failures(shown=True)
    async def open_form(self):
        """An empty form; the user's companies read, their main one chosen."""
        self.form_open = True
        self.url = self.description = self.url_error = self.events_error = ""
        self.company_error, self.events = "", []
        me = await (await self.provider()).users.get(self.user_id, includes=("company",))
        self.companies = [CompanyOption(id=c.id, name=c.name or "") for c in me.companies]
        self.company = self.companies[0].id if self.companies else ""

    @rx.event
    def set_company(self, value: str):
        self.company = value

    @rx.event
    def set_form_open(self, value: bool):
        self.form_open = value

    @rx.event
    def set_url(self, value: str):
        self.url = value

    @rx.event
    def set_description(self, value: str):
        self.description = value

    @rx.event
    def toggle_event(self, event: str, chosen: bool):
        if event not in EVENT_TYPES:
            return
        kept = [held for held in self.events if held != event]
        self.events = [
            known for known in EVENT_TYPES if known in kept or (chosen and known == event)
        ]

    @rx.event
    @reports_failures(shown=True)
    async def create(self, _form: dict):
        if self.busy:
            return
        language = self.current_language
        self.url_error = "" if self.url.strip() else gettext(language, N_("Please give a URL."))
        self.events_error = (
            "" if self.events else gettext(language, N_("Please choose at least one event."))
        )
        if self.url_error or self.events_error:
            return
        self.busy = True
        yield
        try:
            client = await self.provider()
            made = await client.webhooks.create(
                self.url.strip(), self.events, self.description.strip(), self.company
            )
        except ValidationFailed as error:
            fields = error.by_field()
            self.url_error = " ".join(fields.pop("url", []))
            self.company_error = " ".join(fields.pop("company", []))
            self.events_error = " ".join(m for messages in fields.values() for m in messages)
            return
        finally:
            self.busy = False
        self.form_open = False
        self._show_secret(made.secret, made.url)
        await self._refresh()

    def _show_secret(self, secret: str, url: str) -> None:
        self.new_secret, self.secret_url, self.copied = secret, url, False

    @rx.event
    def copy(self):
        self.copied = True
        return rx.set_clipboard(self.new_secret)

    @rx.event
    def dismiss_secret(self):
        """The user has copied the secret: it is not shown again."""
        self.new_secret, self.secret_url, self.copied = "", "", False

    @rx.event
    @reports_failures(shown=True)
    async def rotate(self, webhook_id: str):
        rotated = await (await self.provider()).webhooks.rotate_secret(webhook_id)
        self._show_secret(rotated.secret, rotated.url)
        await self._refresh()

    @rx.event
    @reports_failures(shown=True)
    async def set_enabled(self, webhook_id: str, enabled: bool):
        await (await self.provider()).webhooks.set_enabled(webhook_id, enabled)
        await self._refresh()

    @rx.event
    @reports_failures(shown=True)
    async def delete(self):
        webhook_id = self.confirming_id
        if not webhook_id or self.busy:
            return
        self.busy = True
        yield
        try:
            await (await self.provider()).webhooks.delete(webhook_id)
            if self.log_id == webhook_id:
                self.log_id = ""
            await self._refresh()
        finally:
            self.busy = False
            self.forget_confirmation()

    @rx.event
    @reports_failures(shown=True)
    async def send_test(self, webhook_id: str, url: str):
        await (await self.provider()).webhooks.send_test(webhook_id)
        await self._show_log(webhook_id, url)

    @rx.event
    @reports_failures(shown=True)
    async def show_log(self, webhook_id: str, url: str):
        await self._show_log(webhook_id, url)

    @rx.event
    @reports_failures(shown=True)
    async def refresh_log(self):
        if self.log_id:
            await self._show_log(self.log_id, self.log_url)

    async def _show_log(self, webhook_id: str, url: str) -> None:
        page = await (await self.provider()).webhooks.deliveries(webhook_id)
        language, zone = self.current_language, self.time_zone
        self.log_rows = [DeliveryRow.of(delivery, language, zone) for delivery in page.items]
        self.log_id, self.log_url = webhook_id, url

    @rx.event
    def set_log_open(self, value: bool):
        if not value:
            self.log_id = self.log_url = ""
