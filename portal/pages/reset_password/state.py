"""Reset or confirm password (spec 2): one form for both links of the e-mails.

The token comes from the query; the confirmation page is the same form with its own title,
button and info line. On success the user goes to login with the flag its notice reads.
"""

import reflex as rx

from portal import routes
from portal.client import ProviderError
from portal.connections import anonymous_client
from portal.i18n import gettext
from portal.pages.reset_password.rules import INVALID_LINK, failure_kind, password_problems
from portal.state.messages import failure_text
from portal.state.session import SessionState


class ResetPasswordState(SessionState):
    new_password: rx.Field[str] = rx.field("")
    new_password_confirmation: rx.Field[str] = rx.field("")
    password_visible: rx.Field[bool] = rx.field(False)
    touched: rx.Field[list[str]] = rx.field(default_factory=list)
    saving: rx.Field[bool] = rx.field(False)
    # The provider's violations on the password (a weak one), shown under the field.
    password_violations: rx.Field[list[str]] = rx.field(default_factory=list)
    failure: rx.Field[str] = rx.field("")

    @rx.var
    def token(self) -> str:
        return self.router.url.query_parameters.get("token", "")

    @rx.var
    def confirming(self) -> bool:
        return self.router.url.path.rstrip("/") == routes.CONFIRM_ACCOUNT.path

    @rx.var
    def problems(self) -> dict[str, str]:
        """Problems of the touched fields, as message ids."""
        found = password_problems(self.new_password, self.new_password_confirmation)
        return {name: problem for name, problem in found.items() if name in self.touched}

    @rx.var
    def can_save(self) -> bool:
        valid = not password_problems(self.new_password, self.new_password_confirmation)
        return bool(self.token) and valid and not self.saving

    @rx.event
    def set_new_password(self, value: str):
        self.new_password = value
        self.password_violations = []

    @rx.event
    def set_new_password_confirmation(self, value: str):
        self.new_password_confirmation = value

    @rx.event
    def touch(self, name: str):
        if name not in self.touched:
            self.touched = [*self.touched, name]

    @rx.event
    def toggle_password_visible(self):
        self.password_visible = not self.password_visible

    @rx.event
    def reset_form(self):
        """On each load: a new link starts from an empty form."""
        self.new_password = self.new_password_confirmation = self.failure = ""
        self.touched, self.password_violations = [], []
        self.password_visible = self.saving = False

    @rx.event
    async def save(self, _form: dict):
        self.touched = ["password", "confirmation"]
        if not self.can_save:
            return
        self.saving, self.failure, self.password_violations = True, "", []
        yield
        language = self.current_language
        try:
            async with anonymous_client(language, self.router.session.client_ip) as client:
                await client.auth.reset_password(self.token, self.new_password)
        except ProviderError as error:
            self.saving = False
            self._explain(error, language)
            return
        flag = "accountConfirmed" if self.confirming else "passwordUpdated"
        self.new_password = self.new_password_confirmation = ""
        self.touched = []
        yield rx.redirect(routes.login_path(**{flag: "1"}))
        self.saving = False

    def _explain(self, error: ProviderError, language: str) -> None:
        kind = failure_kind(error)
        if kind == "fields":
            by_field = error.by_field()
            self.password_violations = by_field.pop("password", [])
            # Anything the provider attached elsewhere still reaches the user.
            self.failure = " ".join(m for messages in by_field.values() for m in messages)
        elif kind == "provider":
            self.failure = error.message
        elif kind == "generic":
            self.failure = failure_text(error, language)
        else:
            self.failure = gettext(language, INVALID_LINK)
