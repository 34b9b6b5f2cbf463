"""The login page's single sign-on pieces (issue 52): "Continue with your company" once the
e-mail's domain is covered, and what a failed login through the identity provider says."""

import reflex as rx

from portal.components.i18n import _
from portal.pages.login.sso_state import SsoLoginState


def sso_failure() -> rx.Component:
    def alert(text: rx.Var | str) -> rx.Component:
        return rx.callout(
            text, icon="circle-x", color_scheme="red", role="alert", data_testid="sso-failure"
        )

    return rx.match(
        SsoLoginState.sso_failure,
        ("", rx.fragment()),
        (
            "sso_unreachable",
            alert(
                _(
                    "Your company's identity provider cannot be reached. Please try again in "
                    "a few minutes."
                )
            ),
        ),
        (
            "sso_user_unknown",
            alert(
                _(
                    "You have no account in the portal yet. Ask your company's user manager "
                    "to create it."
                )
            ),
        ),
        (
            "sso_domain",
            alert(
                _(
                    "Your company's single sign-on does not cover this e-mail address: log "
                    "in with the address your company gave you."
                )
            ),
        ),
        (
            "sso_state",
            alert(
                _(
                    "This login is no longer valid (it has expired or was already used). "
                    "Please log in again."
                )
            ),
        ),
        (
            "sso_nonce",
            alert(
                _(
                    "The identity provider's answer does not belong to this login. Please "
                    "log in again."
                )
            ),
        ),
        (
            "sso_expired",
            alert(_("The identity provider's answer has expired. Please log in again.")),
        ),
        (
            "sso_unverified",
            alert(_("Your identity provider has not verified your e-mail address.")),
        ),
        (
            "sso_token",
            alert(_("The identity provider's answer could not be verified. Please log in again.")),
        ),
        ("sso_refused", alert(_("Your identity provider did not log you in."))),
        ("sso_disabled", alert(_("This account is disabled."))),
        alert(_("Single sign-on failed. Please try again.")),
    )


def sso_choice() -> rx.Component:
    """Shown once single sign-on covers the e-mail's domain."""
    return rx.cond(
        SsoLoginState.sso_covered,
        rx.vstack(
            rx.text(
                rx.cond(
                    SsoLoginState.sso_password_allowed,
                    _("Your company logs you in: continue with it, or use your password."),
                    _(
                        "Your company logs you in through its identity provider only: "
                        "continue with it."
                    ),
                ),
                size="2",
                color=rx.color("gray", 11),
            ),
            rx.button(
                rx.icon("building-2", size=18),
                _("Continue with your company"),
                type="button",
                size="3",
                width="100%",
                variant=rx.cond(SsoLoginState.sso_password_allowed, "soft", "solid"),
                loading=SsoLoginState.sso_loading,
                on_click=SsoLoginState.continue_with_company,
                data_testid="sso-continue",
            ),
            spacing="2",
            width="100%",
        ),
    )
