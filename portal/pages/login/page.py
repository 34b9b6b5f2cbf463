"""The login page (spec 2, Login)."""

import reflex as rx

from portal import routes
from portal.components.forms import field, one_time_code_input
from portal.components.i18n import _
from portal.components.page import page
from portal.i18n import N_
from portal.pages.login.passkey import passkey_second_step, passkey_sign_in
from portal.pages.login.sso import sso_choice, sso_failure
from portal.pages.login.sso_state import SsoLoginState
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


def _password_form() -> rx.Component:
    """Its fields are the browser's own (uncontrolled): the page paints before its websocket
    opens, and the state that arrives then must not write over what is being typed."""
    return rx.form(
        rx.vstack(
            rx.heading(
                _("Welcome to your {company} customer portal", company=get_settings().company_name),
                size="6",
                as_="h1",
            ),
            rx.text(_("Log in with your e-mail address and password."), color=rx.color("gray", 11)),
            _notice(),
            _error(),
            sso_failure(),
            field(
                _("E-mail"),
                rx.input(
                    id="login-email",
                    name="email",
                    type="email",
                    auto_complete="username",
                    on_change=LoginState.set_login_email,
                    on_blur=[LoginState.leave_email, SsoLoginState.look_up],
                    size="3",
                    width="100%",
                ),
                _(BLANK),
                LoginState.email_missing,
            ),
            sso_choice(),
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
            passkey_sign_in(),
            spacing="4",
            width="100%",
        ),
        on_submit=LoginState.submit,
        reset_on_submit=False,
    )


def _code_form() -> rx.Component:
    """The second step of issue 18, item 10: a code of the app, or a recovery code."""
    return rx.form(
        rx.vstack(
            rx.heading(_("Two-step login"), size="6", as_="h1"),
            rx.text(
                _(
                    "Enter the 6-digit code that your authenticator app shows for "
                    "{company}, or one of your recovery codes.",
                    company=get_settings().company_name,
                ),
                color=rx.color("gray", 11),
            ),
            _error(),
            field(
                _("Code"),
                one_time_code_input(
                    "login-code",
                    LoginState.login_code,
                    LoginState.set_login_code,
                    auto_focus=True,
                    width="100%",
                ),
            ),
            rx.text(
                rx.flex(
                    rx.checkbox(
                        checked=LoginState.remember_device,
                        on_change=LoginState.set_remember_device,
                    ),
                    _("Remember this browser for 30 days"),
                    spacing="2",
                    align="center",
                ),
                as_="label",
                size="2",
            ),
            rx.button(
                _("Verify"),
                type="submit",
                size="3",
                width="100%",
                disabled=~LoginState.can_submit_code,
                loading=LoginState.loading,
            ),
            passkey_second_step(),
            rx.button(
                _("Back to the password"),
                type="button",
                variant="ghost",
                size="2",
                on_click=LoginState.back_to_password,
            ),
            spacing="4",
            width="100%",
        ),
        on_submit=LoginState.submit_code,
        reset_on_submit=False,
    )


@page(routes.LOGIN, login_layout_=True, on_load=[LoginState.clear_form], paint_early=True)
def login() -> rx.Component:
    return rx.cond(LoginState.code_step, _code_form(), _password_form())
