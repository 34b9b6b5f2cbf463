"""The login page (spec 2, Login)."""

import reflex as rx

from portal import routes
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.page import page
from portal.i18n import N_
from portal.pages.login.state import LoginState
from portal.settings import get_settings

BLANK = N_("This value should not be blank.")


def _notice() -> rx.Component:
    return rx.match(
        LoginState.notice,
        (
            "passwordUpdated",
            rx.callout(
                _("The password has been updated. You can login now."),
                icon="info",
                color_scheme="grass",
            ),
        ),
        (
            "accountConfirmed",
            rx.callout(
                _("Account has been created. You can login now."), icon="info", color_scheme="grass"
            ),
        ),
        rx.fragment(),
    )


def _error() -> rx.Component:
    return rx.cond(
        LoginState.error_message != "",
        rx.callout(LoginState.error_message, icon="circle-x", color_scheme="red", role="alert"),
    )


@page(routes.LOGIN, login_layout_=True, on_load=[LoginState.clear_form])
def login() -> rx.Component:
    """Its fields are the browser's own (uncontrolled): the page paints before its websocket
    opens, and the state that arrives then must not write over what is being typed."""
    return rx.form(
        rx.vstack(
            rx.heading(
                _("Welcome to your {company} customer portal", company=get_settings().company_name),
                size="6",
                as_="h1",
            ),
            rx.text(
                _("Sign in with your e-mail address and password."), color=rx.color("gray", 11)
            ),
            _notice(),
            _error(),
            field(
                _("E-mail"),
                rx.input(
                    id="login-email",
                    name="email",
                    type="email",
                    auto_complete="username",
                    on_change=LoginState.set_login_email,
                    on_blur=LoginState.leave_email,
                    size="3",
                    width="100%",
                ),
                _(BLANK),
                LoginState.email_missing,
            ),
            field(
                _("Password"),
                rx.input(
                    id="login-password",
                    name="password",
                    type="password",
                    auto_complete="current-password",
                    on_change=LoginState.set_login_password,
                    on_blur=LoginState.leave_password,
                    size="3",
                    width="100%",
                ),
                _(BLANK),
                LoginState.password_missing,
            ),
            rx.link(_("Forgot password?"), href=routes.FORGOT_PASSWORD.path, size="2"),
            rx.button(
                _("Login"),
                type="submit",
                size="3",
                width="100%",
                disabled=~LoginState.can_submit,
                loading=LoginState.loading,
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=LoginState.submit,
        reset_on_submit=False,
    )
