"""What the Notifications page knows: the user's preferences as saved and as chosen on the
page; for a user manager (the rule the provider enforces), each of their companies' extra
notice addresses.

Saving sends only what the user changed: the provider takes a language or time zone sent as the
user's choice, after which a login no longer sets the browser's."""

import reflex as rx
from pydantic import BaseModel

from portal.client import ProviderClient, ProviderError, ValidationFailed
from portal.client.models.notifications import (
    NoticeAddress,
    NotificationPreferences,
    PreferencesChange,
)
from portal.i18n import N_, format_moment, gettext, match_language
from portal.permissions import MANAGE_USERS
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState, failure_text
from portal.state.session import SessionState

SAVED = N_("Your notification preferences have been saved.")
ADDED = N_("{email} has been added: it receives a link to confirm it first.")
REMOVED = N_("{email} no longer receives the notices of {company}.")


class AddressRow(BaseModel):
    id: str = ""
    email: str = ""
    confirmed: bool = False
    # When it was confirmed, else when it was added, on the user's clock.
    since: str = ""

    @classmethod
    def of(cls, address: NoticeAddress, language: str, zone: str) -> "AddressRow":
        moment = address.confirmed_at or address.created_at
        return cls(
            id=address.id,
            email=address.email,
            confirmed=address.confirmed_at is not None,
            since=format_moment(moment, language, zone),
        )


class CompanyAddresses(BaseModel):
    id: str = ""
    name: str = ""
    addresses: list[AddressRow] = []
    # What the provider refused of the last address added, said under its field.
    error: str = ""


class NotificationsState(SessionState):
    loaded: rx.Field[bool] = rx.field(False)
    failure: rx.Field[str] = rx.field("")
    maintenance_notices: rx.Field[str] = rx.field("all")
    ticket_notices: rx.Field[str] = rx.field("opened")
    mail_language: rx.Field[str] = rx.field("en")
    mail_time_zone: rx.Field[str] = rx.field("UTC")
    time_zone_error: rx.Field[str] = rx.field("")
    saving: rx.Field[bool] = rx.field(False)
    companies: rx.Field[list[CompanyAddresses]] = rx.field(default_factory=list)
    # The company whose address is being added.
    adding: rx.Field[str] = rx.field("")
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
        self.loaded, self.failure, self.companies = False, "", []
        if not self._page_open():
            return
        try:
            client = await self.provider()
            self._show(await client.notifications.preferences())
            if self._holds(MANAGE_USERS):
                await self._read_addresses(client)
        except ProviderError as error:
            self.failure = failure_text(error, self.current_language)
            raise
        self.loaded = True

    async def _read_addresses(self, client: ProviderClient) -> None:
        me = await client.users.get(self.user_id, includes=("company",))
        companies = []
        for company in me.companies:
            found = await client.notifications.addresses(company.id)
            rows = [AddressRow.of(a, self.current_language, self.time_zone) for a in found]
            companies.append(
                CompanyAddresses(id=company.id, name=company.name or "", addresses=rows)
            )
        self.companies = companies

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

    @rx.event
    @reports_failures(shown=True)
    async def add_address(self, form: dict):
        company_id, email = str(form.get("company", "")), str(form.get("email", "")).strip()
        language = match_language(str(form.get("language", "")))
        zone = str(form.get("time_zone", "")) or "UTC"
        company = self._company(company_id)
        if company is None or not email or self.adding:
            return
        self.adding = company_id
        company.error = ""
        yield
        client = await self.provider()
        try:
            added = await client.notifications.add_address(company_id, email, language, zone)
            found = await client.notifications.addresses(company_id)
        except ValidationFailed as error:
            company.error = failure_text(error, self.current_language)
            self.companies = list(self.companies)
            return
        finally:
            self.adding = ""
        self._list_addresses(company, found)
        messages = await self.get_state(MessagesState)
        messages.show(gettext(self.current_language, ADDED, email=added.email), "success")

    @rx.event
    @reports_failures(shown=True)
    async def remove_address(self, company_id: str, address_id: str):
        company = self._company(company_id)
        if company is None:
            return
        email = next((a.email for a in company.addresses if a.id == address_id), "")
        client = await self.provider()
        await client.notifications.remove_address(company_id, address_id)
        self._list_addresses(company, await client.notifications.addresses(company_id))
        text = gettext(self.current_language, REMOVED, email=email, company=company.name)
        (await self.get_state(MessagesState)).show(text, "success")

    def _company(self, company_id: str) -> CompanyAddresses | None:
        return next((c for c in self.companies if c.id == company_id), None)

    def _list_addresses(self, company: CompanyAddresses, found: list[NoticeAddress]) -> None:
        company.addresses = [AddressRow.of(a, self.current_language, self.time_zone) for a in found]
        company.error = ""
        self.companies = list(self.companies)


def _if_changed(value: str, saved: str) -> str | None:
    return value if value != saved else None
