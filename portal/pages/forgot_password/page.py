"""The forgot-password page (spec 2, Forgot password), in the Login layout."""

import reflex as rx

from portal import routes
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.page import page
from portal.i18n import N_
from portal.pages.forgot_password.state import ForgotPasswordState
from portal.validation import BLANK, INVALID_EMAIL

SENT = N_("If the email exists an email should arrive in the next few minutes.")


def _info() -> rx.Component:
    return rx.cond(
        ForgotPasswordState.failure != "",
        rx.callout(ForgotPasswordState.failure, icon="circle-x", color_scheme="red", role="alert"),
        rx.cond(
            ForgotPasswordState.sent,
            rx.callout(_(SENT), icon="mail-check", color_scheme="grass", role="status"),
            rx.callout(
                _(
                    "Enter the e-mail address of your account: we will send you a link to "
                    "choose a new password."
                ),
                icon="info",
                color_scheme="gray",
                variant="surface",
            ),
        ),
    )


@page(routes.FORGOT_PASSWORD, login_layout_=True)
def forgot_password() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.heading(_("Forgot password"), size="6", as_="h1"),
            _info(),
            field(
                _("E-mail"),
                rx.input(
                    id="forgot-email",
                    name="email",
                    type="email",
                    auto_complete="username",
                    value=ForgotPasswordState.reset_email,
                    on_change=ForgotPasswordState.set_reset_email,
                    on_blur=ForgotPasswordState.touch_email,
                    size="3",
                    width="100%",
                ),
                rx.match(
                    ForgotPasswordState.email_problem,
                    (BLANK, _(BLANK)),
                    (INVALID_EMAIL, _(INVALID_EMAIL)),
                    "",
                ),
                ForgotPasswordState.email_problem != "",
            ),
            rx.button(
                _("Reset password"),
                type="submit",
                size="3",
                width="100%",
                disabled=~ForgotPasswordState.can_send,
                loading=ForgotPasswordState.sending,
            ),
            rx.link(_("Back to login"), href=routes.LOGIN.path, size="2"),
            spacing="4",
            width="100%",
        ),
        on_submit=ForgotPasswordState.send,
        reset_on_submit=False,
    )
