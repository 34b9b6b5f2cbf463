"""One's passkeys on the two-step login page (issue 52): the list (name, created, last used),
a new one registered by the browser, rename and delete. A first passkey brings the recovery
codes, shown once as after the authenticator app's set-up."""

import reflex as rx
from pydantic import BaseModel

from portal.client import ProviderError, ValidationFailed
from portal.client.models.second_factor import Passkey
from portal.components.confirm_dialog import Confirmation
from portal.components.passkeys import FAILED, create_script, credential_of, refusal
from portal.i18n import N_, format_moment, gettext
from portal.pages.second_factor.state import SecondFactorState
from portal.state.failures import reports_failures

DEFAULT_NAME = N_("Passkey")


class PasskeyRow(BaseModel):
    id: str = ""
    name: str = ""
    created: str = ""
    last_used: str = ""

    @classmethod
    def of(cls, passkey: Passkey, language: str, zone: str) -> "PasskeyRow":
        return cls(
            id=passkey.id,
            name=passkey.name,
            created=format_moment(passkey.created_at, language, zone),
            last_used=format_moment(passkey.last_used_at, language, zone),
        )


class PasskeysState(Confirmation, SecondFactorState):
    passkeys_loaded: bool = False
    passkey_rows: rx.Field[list[PasskeyRow]] = rx.field(default_factory=list)
    new_passkey_name: str = ""
    passkey_error: str = ""
    registering: bool = False
    # The passkey being renamed, by id, with the name typed.
    renaming_id: str = ""
    rename_value: str = ""
    rename_error: str = ""
    # The token of the registration under way: backend-only, never in the browser.
    _ceremony_token: str = ""

    @rx.event
    def set_new_passkey_name(self, value: str):
        self.new_passkey_name = value

    @rx.event
    def set_rename_value(self, value: str):
        self.rename_value = value

    @rx.event
    @reports_failures
    async def load_passkeys(self):
        self.passkey_error = ""
        self.renaming_id = ""
        self.forget_confirmation()
        if not self._page_open():
            return
        await self._refresh_passkeys()
        self.passkeys_loaded = True

    async def _refresh_passkeys(self) -> None:
        passkeys = await (await self.provider()).passkeys.list()
        language, zone = self.current_language, self.time_zone
        self.passkey_rows = [PasskeyRow.of(passkey, language, zone) for passkey in passkeys]
        self.passkeys = len(passkeys)

    @rx.event
    @reports_failures(shown=True)
    async def add_passkey(self, _form: dict):
        if self.registering:
            return
        self.registering = True
        self.passkey_error = ""
        yield
        try:
            ceremony = await (await self.provider()).passkeys.registration_options()
        except ProviderError:
            self.registering = False
            raise
        self._ceremony_token = ceremony.challenge_token
        yield rx.call_script(
            create_script(ceremony.public_key), callback=PasskeysState.finish_passkey
        )

    @rx.event
    @reports_failures(shown=True)
    async def finish_passkey(self, result: dict | None):
        token, self._ceremony_token = self._ceremony_token, ""
        language = self.current_language
        refused = refusal(result)
        if refused is None and not token:
            refused = FAILED
        if refused is not None or result is None:
            self.passkey_error = gettext(language, refused or FAILED)
            self.registering = False
            return
        name = self.new_passkey_name.strip() or gettext(language, DEFAULT_NAME)
        try:
            client = await self.provider()
            created = await client.passkeys.register(token, name, credential_of(result))
        except ValidationFailed as error:
            self.passkey_error = error.message
            return
        finally:
            self.registering = False
        self.new_passkey_name = ""
        await self._refresh_passkeys()
        if created.recovery_codes:
            self.recovery_codes = created.recovery_codes
            self.recovery_codes_left = len(created.recovery_codes)
            self.continue_home = self.second_factor_due
        await self._mark_second_factor_due(False)

    @rx.event
    def ask_rename(self, passkey_id: str, name: str):
        self.renaming_id, self.rename_value, self.rename_error = passkey_id, name, ""

    @rx.event
    def cancel_rename(self):
        self.renaming_id = self.rename_value = self.rename_error = ""

    @rx.event
    @reports_failures(shown=True)
    async def rename(self, _form: dict):
        if not self.renaming_id or self.registering:
            return
        try:
            client = await self.provider()
            await client.passkeys.rename(self.renaming_id, self.rename_value.strip())
        except ValidationFailed as error:
            self.rename_error = error.message
            return
        self.renaming_id = self.rename_value = ""
        await self._refresh_passkeys()

    @rx.event
    @reports_failures(shown=True)
    async def delete(self):
        passkey_id = self.confirming_id
        if not passkey_id or self.registering:
            return
        self.registering = True
        yield
        try:
            await (await self.provider()).passkeys.delete(passkey_id)
        finally:
            self.registering = False
            self.forget_confirmation()
        await self._refresh_passkeys()
        status = await (await self.provider()).second_factor.status()
        self.recovery_codes_left = status.recovery_codes_left
