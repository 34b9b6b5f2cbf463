"""The two-step login card: off (with the set-up button), the set-up (scan, then a code), the
recovery codes shown once, and on."""

import reflex as rx

from portal.components.confirm_dialog import confirm_dialog
from portal.components.forms import field, one_time_code_input
from portal.components.i18n import _
from portal.pages.second_factor.state import SecondFactorState
from portal.settings import get_settings
from portal.state.session import SessionState

_MONO = {"font_family": "var(--code-font-family)", "letter_spacing": "0.05em"}


def _status_badge() -> rx.Component:
    return rx.cond(
        SecondFactorState.enrolled,
        rx.badge(_("On"), color_scheme="grass", size="2"),
        rx.badge(_("Off"), color_scheme="gray", size="2"),
    )


def due_callout() -> rx.Component:
    """A staff role or the company's policy (issue 52) requires a factor not yet set up."""
    return rx.cond(
        SessionState.second_factor_due,
        rx.callout(
            _("Your account requires two-step login: set it up to continue."),
            icon="shield-alert",
            color_scheme="amber",
            width="100%",
            max_width="760px",
        ),
    )


def _off() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "After your password, logging in will ask for a 6-digit code from an "
                "authenticator app on your phone. Someone who learns your password cannot "
                "log in without it."
            )
        ),
        rx.button(
            rx.icon("shield-check", size=16),
            _("Set up two-step login"),
            on_click=SecondFactorState.start,
            loading=SecondFactorState.working,
        ),
        spacing="4",
        align="start",
    )


def _scan() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.text(
                _(
                    "1. Scan this QR code with an authenticator app (FreeOTP, Google "
                    "Authenticator, Microsoft Authenticator, 1Password…)."
                )
            ),
            rx.image(
                src=SecondFactorState.qr_code,
                alt=_("QR code to scan with the authenticator app"),
                width="200px",
                height="200px",
                border_radius="var(--radius-2)",
            ),
            rx.text(_("Or enter this key in the app by hand:"), size="2"),
            rx.code(SecondFactorState.secret, size="3", style={"word_break": "break-all"}),
            field(
                _("2. Enter the 6-digit code that the app shows:"),
                one_time_code_input(
                    "second-factor-code",
                    SecondFactorState.setup_code,
                    SecondFactorState.set_setup_code,
                    max_width="220px",
                    style=_MONO,
                ),
                SecondFactorState.code_error,
                SecondFactorState.code_error != "",
            ),
            rx.flex(
                rx.button(
                    _("Confirm"),
                    type="submit",
                    loading=SecondFactorState.working,
                    disabled=SecondFactorState.setup_code.strip() == "",
                ),
                rx.button(
                    _("Cancel"),
                    type="button",
                    variant="soft",
                    color_scheme="gray",
                    on_click=SecondFactorState.cancel,
                ),
                spacing="3",
            ),
            spacing="3",
            align="start",
        ),
        on_submit=SecondFactorState.confirm,
        reset_on_submit=False,
    )


def _recovery_codes() -> rx.Component:
    return rx.vstack(
        rx.callout(
            _(
                "Two-step login is on. Save these recovery codes somewhere safe now: each "
                "logs you in once if you lose your phone, and they will not be shown again."
            ),
            icon="key-round",
            color_scheme="amber",
        ),
        rx.grid(
            rx.foreach(SecondFactorState.recovery_codes, lambda c: rx.code(c, size="3")),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="2",
            data_testid="recovery-codes",
        ),
        rx.flex(
            rx.button(
                rx.icon("copy", size=16),
                _("Copy the codes"),
                variant="soft",
                on_click=rx.set_clipboard(SecondFactorState.recovery_codes.join("\n")),
            ),
            rx.button(_("I have saved them"), on_click=SecondFactorState.finish),
            spacing="3",
            wrap="wrap",
        ),
        spacing="4",
        align="start",
    )


def _on() -> rx.Component:
    return rx.text(
        _(
            "Logging in asks for a code of your authenticator app after the password, "
            "except on the browsers you chose to remember for 30 days."
        )
    )


def _body() -> rx.Component:
    return rx.cond(
        SecondFactorState.step == "scan",
        _scan(),
        rx.cond(SecondFactorState.enrolled, _on(), _off()),
    )


def _codes_left() -> rx.Component:
    return rx.vstack(
        rx.text(
            _("Recovery codes left: {count}", count=SecondFactorState.recovery_codes_left.to(str)),
            weight="medium",
        ),
        rx.text(
            _(
                "Lost your phone or passkey? Log in with a recovery code, or ask an "
                "administrator of {company} to reset your two-step login.",
                company=get_settings().company_name,
            ),
            size="2",
            color=rx.color("gray", 11),
        ),
        rx.button(
            rx.icon("refresh-cw", size=16),
            _("Generate new recovery codes"),
            variant="soft",
            on_click=SecondFactorState.ask_new_codes,
        ),
        confirm_dialog(
            title=_("Generate new recovery codes?"),
            description=_("Your current recovery codes stop working at once."),
            action=_("Generate"),
            on_confirm=SecondFactorState.new_codes,
            on_cancel=SecondFactorState.cancel_new_codes,
            busy=SecondFactorState.working,
            is_open=SecondFactorState.confirming_new_codes,
        ),
        spacing="3",
        align="start",
    )


def recovery_codes_card() -> rx.Component:
    """The codes just made, shown once; else how many are left and new ones on demand."""
    return rx.card(
        rx.heading(_("Recovery codes"), as_="h2", size="4", margin_bottom="16px"),
        rx.cond(
            SecondFactorState.after_recovery_code
            & (SecondFactorState.recovery_codes.length() == 0),
            rx.callout(
                _(
                    "You logged in with a recovery code, which will not serve again. Recovery "
                    "codes left: {count}",
                    count=SecondFactorState.recovery_codes_left.to(str),
                ),
                icon="key-round",
                color_scheme="amber",
                margin_bottom="16px",
                data_testid="recovery-code-used",
            ),
        ),
        rx.cond(
            SessionState.is_impersonating | ~SecondFactorState.loaded,
            rx.fragment(),
            rx.cond(
                SecondFactorState.recovery_codes.length() > 0,
                _recovery_codes(),
                rx.cond(
                    SecondFactorState.has_factor,
                    _codes_left(),
                    rx.text(
                        _(
                            "Recovery codes come with your first second factor: an "
                            "authenticator app or a passkey."
                        ),
                        size="2",
                    ),
                ),
            ),
        ),
        width="100%",
        max_width="760px",
        data_testid="recovery-codes-card",
    )


def second_factor_card() -> rx.Component:
    return rx.card(
        rx.flex(
            rx.heading(_("Authenticator app"), as_="h2", size="4"),
            _status_badge(),
            justify="between",
            align="center",
            margin_bottom="16px",
        ),
        rx.cond(
            SessionState.is_impersonating,
            rx.text(_("Only the user themself can change their two-step login.")),
            rx.cond(SecondFactorState.loaded, _body(), rx.spinner()),
        ),
        width="100%",
        max_width="760px",
    )
