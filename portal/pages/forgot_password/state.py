"""Forgot password (spec 2): ask for a reset link by e-mail.

The provider answers alike whether the e-mail exists, so the success text says "if"; a failure
(a rate limit, the provider unreachable) is shown in the same info box.
"""

import reflex as rx

from portal.client import ProviderError
from portal.connections import anonymous_client
from portal.state.messages import failure_text
from portal.state.session import SessionState
from portal.validation import BLANK, INVALID_EMAIL, is_blank, is_email


def email_error(email: str) -> str:
    """The message id of what is wrong with the e-mail, or ""."""
    if is_blank(email):
        return BLANK
    return "" if is_email(email) else INVALID_EMAIL


class ForgotPasswordState(SessionState):
    reset_email: rx.Field[str] = rx.field("")
    email_touched: rx.Field[bool] = rx.field(False)
    sending: rx.Field[bool] = rx.field(False)
    sent: rx.Field[bool] = rx.field(False)
    failure: rx.Field[str] = rx.field("")

    @rx.var
    def email_problem(self) -> str:
        return email_error(self.reset_email) if self.email_touched else ""

    @rx.var
    def can_send(self) -> bool:
        return not email_error(self.reset_email) and not self.sending

    @rx.event
    def set_reset_email(self, value: str):
        self.reset_email = value

    @rx.event
    def touch_email(self):
        self.email_touched = True

    @rx.event
    async def send(self, _form: dict):
        self.email_touched = True
        if not self.can_send:
            return
        self.sending, self.sent, self.failure = True, False, ""
        yield
        language = self.current_language
        try:
            async with anonymous_client(language, self.router.session.client_ip) as client:
                await client.auth.request_reset(self.reset_email.strip())
        except ProviderError as error:
            self.failure = failure_text(error, language)
        else:
            self.sent = True
            self.reset_email = ""
            self.email_touched = False
        finally:
            self.sending = False
