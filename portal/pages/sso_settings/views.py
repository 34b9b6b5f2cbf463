"""A company's single sign-on: the company chosen by name, then the form of its identity
provider (its own section, so that a company screen can take it as one)."""

import reflex as rx

from portal.components.confirm_dialog import confirm_dialog
from portal.components.forms import field
from portal.components.i18n import _
from portal.components.roles import ROLE_LABELS
from portal.pages.sso_settings.state import CompanyOption, SsoSettingsState
from portal.permissions import CLIENT_ROLES

S = SsoSettingsState


def _company_choice() -> rx.Component:
    def option(company: CompanyOption) -> rx.Component:
        return rx.button(
            company.name,
            variant="ghost",
            on_click=S.choose_company(company.id),
            justify="start",
            width="100%",
        )

    return rx.vstack(
        field(
            _("Company"),
            rx.input(
                id="sso-company",
                name="company",
                value=S.company_search,
                on_change=S.search_companies.debounce(300),
                placeholder=_("Type part of the company's name"),
                width="100%",
            ),
        ),
        rx.vstack(rx.foreach(S.company_options, option), spacing="1", width="100%"),
        spacing="2",
        width="100%",
    )


def _role_choice(role: str) -> rx.Component:
    return rx.checkbox(
        _(ROLE_LABELS[role]),
        checked=S.default_roles.contains(role),
        on_change=lambda chosen: S.toggle_role(role, chosen),
        size="2",
    )


def sso_section() -> rx.Component:
    """The company's identity provider, as a section of its own."""
    return rx.card(
        rx.form(
            rx.vstack(
                rx.heading(
                    _("Single sign-on of {company}", company=S.company_name), as_="h2", size="4"
                ),
                rx.text(
                    _(
                        "The company's users whose e-mail is on one of its domains log in "
                        "through its OpenID Connect identity provider. Register the portal there "
                        "with this redirect address:"
                    ),
                    size="2",
                    color=rx.color("gray", 11),
                ),
                # One word to the browser: on a phone it breaks anywhere rather than run out
                # of the card.
                rx.code(S.callback_url, data_testid="sso-callback", word_break="break-all"),
                field(
                    _("Issuer URL"),
                    rx.input(
                        id="sso-issuer",
                        name="issuer",
                        value=S.issuer,
                        on_change=S.set_issuer,
                        placeholder="https://login.example.com/realms/acme",
                        width="100%",
                    ),
                    S.issuer_error,
                    S.issuer_error != "",
                ),
                field(
                    _("Client ID"),
                    rx.input(
                        id="sso-client-id",
                        name="client_id",
                        value=S.client_id,
                        on_change=S.set_client_id,
                        width="100%",
                    ),
                    S.client_id_error,
                    S.client_id_error != "",
                ),
                field(
                    _("Client secret"),
                    rx.input(
                        id="sso-client-secret",
                        name="client_secret",
                        type="password",
                        auto_complete="off",
                        value=S.client_secret,
                        on_change=S.set_client_secret,
                        placeholder=rx.cond(S.has_secret, _("Stored: leave empty to keep it"), ""),
                        width="100%",
                    ),
                    S.client_secret_error,
                    S.client_secret_error != "",
                ),
                field(
                    _("E-mail domains"),
                    rx.text_area(
                        id="sso-domains",
                        name="domains",
                        value=S.domains,
                        on_change=S.set_domains,
                        placeholder="acme.com",
                        rows="3",
                        width="100%",
                    ),
                    S.domains_error,
                    S.domains_error != "",
                    hint=_("One per line. A domain belongs to one company only."),
                ),
                rx.text(
                    rx.flex(
                        rx.switch(checked=S.password_allowed, on_change=S.set_password_allowed),
                        _("Users may also log in with a password"),
                        spacing="2",
                        align="center",
                    ),
                    as_="label",
                    size="2",
                ),
                rx.text(
                    rx.flex(
                        rx.switch(checked=S.create_users, on_change=S.set_create_users),
                        _("Create users unknown to the portal at their first login"),
                        spacing="2",
                        align="center",
                    ),
                    as_="label",
                    size="2",
                ),
                rx.cond(
                    S.create_users,
                    rx.vstack(
                        rx.text(_("Their roles"), size="2", weight="medium"),
                        rx.flex(
                            *(_role_choice(role) for role in CLIENT_ROLES), spacing="4", wrap="wrap"
                        ),
                        rx.cond(
                            S.roles_error != "",
                            rx.text(
                                S.roles_error,
                                size="1",
                                color=rx.color("red", 11),
                                role="alert",
                            ),
                        ),
                        spacing="2",
                    ),
                ),
                rx.flex(
                    rx.button(_("Save"), type="submit", loading=S.busy),
                    rx.cond(
                        S.configured,
                        rx.button(
                            _("Remove single sign-on"),
                            type="button",
                            variant="soft",
                            color_scheme="red",
                            on_click=S.ask_removal(True),
                        ),
                    ),
                    spacing="3",
                    wrap="wrap",
                ),
                spacing="4",
                width="100%",
            ),
            on_submit=S.save,
            reset_on_submit=False,
        ),
        width="100%",
    )


def sso_settings_screen() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "Choose a company to set how its users log in with its own identity provider "
                "(Entra ID, Okta, Google Workspace, Keycloak…)."
            ),
            color=rx.color("gray", 11),
        ),
        _company_choice(),
        rx.cond(
            S.notice != "",
            rx.callout(S.notice, icon="info", color_scheme="grass", role="status"),
        ),
        rx.cond(S.company_id != "", sso_section()),
        confirm_dialog(
            title=_("Remove single sign-on?"),
            description=_(
                "The company's users will log in with a password again; those who have none "
                "must ask for one with “Forgot password?”."
            ),
            action=_("Remove"),
            on_confirm=S.remove,
            on_cancel=S.ask_removal(False),
            busy=S.busy,
            is_open=S.confirming_removal,
        ),
        spacing="4",
        width="100%",
        max_width="760px",
    )
