"""The reset-password and confirm-account pages (spec 2, Reset or confirm password): one form,
two routes, in the Login layout."""

import reflex as rx

from portal import routes
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.page import page
from portal.i18n import N_
from portal.pages.reset_password.state import ResetPasswordState
from portal.validation import BLANK, CONFIRMATION_MISMATCH, PASSWORD_HINT

CONFIRM_TITLE = N_("Confirm my account")
PASSWORD_REQUIRED = N_("A password is required to activate your account: please choose one.")

State = ResetPasswordState


def _problem(name: str) -> rx.Var:
    return rx.match(
        State.problems.get(name, ""),
        (BLANK, _(BLANK)),
        (CONFIRMATION_MISMATCH, _(CONFIRMATION_MISMATCH)),
        "",
    )


def _password_input(input_id: str, value: rx.Var, on_change, name: str) -> rx.Component:
    # One toggle, on the first field, shows or hides both.
    toggle = rx.input.slot(
        rx.icon_button(
            rx.cond(State.password_visible, rx.icon("eye-off", size=16), rx.icon("eye", size=16)),
            type="button",
            variant="ghost",
            size="1",
            on_click=State.toggle_password_visible,
            aria_label=rx.cond(State.password_visible, _("Hide password"), _("Show password")),
        ),
        side="right",
    )
    return rx.input(
        *([toggle] if name == "password" else []),
        id=input_id,
        name=name,
        type=rx.cond(State.password_visible, "text", "password"),
        auto_complete="new-password",
        value=value,
        on_change=on_change,
        on_blur=State.touch(name),
        size="3",
        width="100%",
    )


def _password_errors() -> rx.Component:
    return rx.vstack(
        rx.cond(
            State.problems.contains("password"),
            rx.text(_problem("password"), size="1", color=rx.color("red", 11), role="alert"),
        ),
        rx.foreach(
            State.password_violations,
            lambda message: rx.text(message, size="1", color=rx.color("red", 11), role="alert"),
        ),
        spacing="1",
    )


def _form() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.heading(
                rx.cond(State.confirming, _(CONFIRM_TITLE), _("Reset password")), size="6", as_="h1"
            ),
            rx.cond(
                State.confirming,
                rx.callout(
                    _(PASSWORD_REQUIRED), icon="info", color_scheme="gray", variant="surface"
                ),
            ),
            rx.cond(
                State.token == "",
                rx.callout(
                    _("This link is incomplete: open the link of the e-mail you received."),
                    icon="triangle-alert",
                    color_scheme="amber",
                ),
            ),
            rx.cond(
                State.failure != "",
                rx.callout(State.failure, icon="circle-x", color_scheme="red", role="alert"),
            ),
            rx.vstack(
                field(
                    _("Password"),
                    _password_input(
                        "reset-password", State.new_password, State.set_new_password, "password"
                    ),
                ),
                _password_errors(),
                rx.text(_(PASSWORD_HINT), size="1", color=rx.color("gray", 11)),
                spacing="1",
                width="100%",
            ),
            field(
                _("Confirm password"),
                _password_input(
                    "reset-password-confirmation",
                    State.new_password_confirmation,
                    State.set_new_password_confirmation,
                    "confirmation",
                ),
                _problem("confirmation"),
                State.problems.contains("confirmation"),
            ),
            rx.button(
                rx.cond(State.confirming, _(CONFIRM_TITLE), _("Reset password")),
                type="submit",
                size="3",
                width="100%",
                disabled=~State.can_save,
                loading=State.saving,
            ),
            rx.link(_("Back to login"), href=routes.LOGIN.path, size="2"),
            spacing="4",
            width="100%",
        ),
        on_submit=State.save,
        reset_on_submit=False,
    )


for _route in (routes.RESET_PASSWORD, routes.CONFIRM_ACCOUNT):
    page(_route, login_layout_=True, on_load=[State.reset_form])(_form)
