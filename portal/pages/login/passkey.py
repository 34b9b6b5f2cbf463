"""Log in with a passkey (issue 52): on the login form, without a password (any passkey of the
browser, the account named by the passkey), or at the second step of a password login (that
user's passkeys). The ceremony's token stays in this state's backend-only var; the browser gets
the public options and answers with the credential, which the provider checks."""

import reflex as rx

from portal.client import ProviderError
from portal.components.i18n import _
from portal.components.passkeys import FAILED, credential_of, get_script, refusal
from portal.i18n import gettext
from portal.pages.login.state import LoginState
from portal.state.messages import failure_text


class PasskeyLoginState(LoginState):
    # The token of the login under way: backend-only, never in the browser.
    _passkey_token: str = ""

    def _ceremony_cookies(self) -> dict[str, str]:
        """At the second step, the pending login's cookies: that user's passkeys only."""
        return self._pending_cookies() if self.code_step else {}

    @rx.event
    async def start_passkey(self):
        if self.loading:
            return
        self.loading = True
        self.error_message = ""
        yield
        try:
            async with self._client(self._ceremony_cookies()) as client:
                ceremony = await client.auth.passkey_options()
        except ProviderError as error:
            self.error_message = failure_text(error, self.current_language)
            self.loading = False
            return
        self._passkey_token = ceremony.challenge_token
        yield rx.call_script(
            get_script(ceremony.public_key), callback=PasskeyLoginState.finish_passkey
        )

    @rx.event
    async def finish_passkey(self, result: dict | None):
        token, self._passkey_token = self._passkey_token, ""
        refused = refusal(result)
        if refused is None and not token:
            refused = FAILED
        if refused is not None or result is None:
            self.error_message = gettext(self.current_language, refused or FAILED)
            self.loading = False
            return
        try:
            async with self._client(self._ceremony_cookies()) as client:
                user_id = await client.auth.passkey_sign_in(
                    token, credential_of(result), remember=self.code_step and self.remember_device
                )
                self._pending_login = ""
                yield await self._sign_in(client, user_id)
        except ProviderError as error:
            self.error_message = failure_text(error, self.current_language)
        self.loading = False


_WRAPPING = {"height": "auto", "min_height": "var(--base-button-height)", "padding_block": "8px"}


def _or() -> rx.Component:
    return rx.flex(
        rx.separator(size="4"),
        rx.text(_("or"), size="2", color=rx.color("gray", 11)),
        rx.separator(size="4"),
        align="center",
        spacing="3",
        width="100%",
    )


def _passkey_button(label: rx.Var | str) -> rx.Component:
    return rx.vstack(
        _or(),
        rx.button(
            rx.icon("key-round", size=16),
            label,
            type="button",
            variant="outline",
            size="3",
            width="100%",
            # A long label (in French) wraps on a phone instead of leaving the button.
            style=_WRAPPING,
            on_click=PasskeyLoginState.start_passkey,
            loading=LoginState.loading,
        ),
        spacing="4",
        width="100%",
    )


def passkey_sign_in() -> rx.Component:
    """Below the password form: a login without a password."""
    return _passkey_button(_("Log in with a passkey"))


def passkey_second_step() -> rx.Component:
    """At the second step, when the account has a passkey."""
    return rx.cond(
        LoginState.second_factor_methods.contains("passkey"), _passkey_button(_("Use a passkey"))
    )
