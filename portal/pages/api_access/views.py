"""API access: the token just made (shown once, with its copy button), the form that makes one,
and the list of one's tokens with their revocation."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.confirm_dialog import confirm_dialog
from portal.components.copy_field import MONO, shown_once
from portal.components.credential_card import credential_card, moment_line
from portal.components.forms import field
from portal.components.i18n import _
from portal.pages.api_access.state import EXPIRY_DAYS, SCOPE_LABELS, ApiAccessState, TokenRow
from portal.permissions import TOKEN_SCOPES
from portal.state.session import SessionState

_EXPIRY_LABELS = {
    "30": _("30 days"),
    "90": _("90 days"),
    "180": _("180 days"),
    "365": _("1 year"),
}
_STATE_COLOURS = {"active": "grass", "expired": "gray", "revoked": "red"}


def _new_token() -> rx.Component:
    return shown_once(
        _(
            "Your new token, shown only now: copy it into your tool. Whoever has it reads what "
            "it allows, as you."
        ),
        ApiAccessState.new_token,
        ApiAccessState.copied,
        ApiAccessState.copy,
        ApiAccessState.dismiss_token,
        _("New API token"),
        "new-token",
    )


def _scope_choice(scope: str) -> rx.Component:
    return rx.cond(
        SessionState.allows(TOKEN_SCOPES[scope]),
        rx.checkbox(
            _(SCOPE_LABELS[scope]),
            checked=ApiAccessState.scopes.contains(scope),
            on_change=lambda chosen: ApiAccessState.toggle_scope(scope, chosen),
            size="2",
        ),
    )


def _form() -> rx.Component:
    return rx.card(
        rx.form(
            rx.vstack(
                rx.heading(_("Make a token"), as_="h2", size="4"),
                field(
                    _("Name"),
                    rx.input(
                        id="token-name",
                        name="name",
                        value=ApiAccessState.name,
                        on_change=ApiAccessState.set_name,
                        max_length=100,
                        placeholder=_("What the token is for, e.g. NOC dashboard"),
                        width="100%",
                    ),
                    ApiAccessState.name_error,
                    ApiAccessState.name_error != "",
                ),
                rx.vstack(
                    rx.text(_("It reads"), size="2", weight="medium"),
                    rx.flex(
                        *(_scope_choice(scope) for scope in TOKEN_SCOPES),
                        spacing="4",
                        wrap="wrap",
                    ),
                    rx.cond(
                        ApiAccessState.scopes_error != "",
                        rx.text(
                            ApiAccessState.scopes_error,
                            size="1",
                            color=rx.color("red", 11),
                            role="alert",
                        ),
                    ),
                    spacing="2",
                ),
                field(
                    _("Expires in"),
                    rx.select.root(
                        rx.select.trigger(aria_label=_("Expires in"), min_width="160px"),
                        rx.select.content(
                            *(
                                rx.select.item(_EXPIRY_LABELS[days], value=days)
                                for days in EXPIRY_DAYS
                            )
                        ),
                        value=ApiAccessState.expiry_days,
                        on_change=ApiAccessState.set_expiry_days,
                    ),
                ),
                rx.button(
                    rx.icon("plus", size=14),
                    _("Make the token"),
                    type="submit",
                    loading=ApiAccessState.busy,
                ),
                spacing="4",
                align="start",
                width="100%",
            ),
            on_submit=ApiAccessState.create,
            reset_on_submit=False,
        ),
        width="100%",
    )


def _token_card(row: ObjectVar[TokenRow]) -> rx.Component:
    return credential_card(
        rx.hstack(
            rx.text(row.name, weight="bold"),
            rx.badge(
                row.state_label,
                color_scheme=rx.match(
                    row.state,
                    *((state, colour) for state, colour in _STATE_COLOURS.items()),
                    "gray",
                ),
            ),
            align="center",
            wrap="wrap",
        ),
        [
            rx.text(_("Reads: {scopes}", scopes=row.scopes), size="2"),
            moment_line(_("Created:"), row.created),
            moment_line(_("Last used:"), row.last_used),
            moment_line(_("Expires:"), row.expires),
        ],
        rx.cond(
            row.state == "active",
            rx.button(
                rx.icon("ban", size=14),
                _("Revoke"),
                variant="soft",
                color_scheme="red",
                on_click=ApiAccessState.ask_confirmation(row.id, row.name),
            ),
        ),
        test_id="token-row",
    )


def _list() -> rx.Component:
    return rx.vstack(
        rx.heading(_("Your tokens"), as_="h2", size="4"),
        rx.cond(
            ApiAccessState.rows.length() > 0,
            rx.vstack(rx.foreach(ApiAccessState.rows, _token_card), spacing="2", width="100%"),
            rx.text(_("You have no API token."), size="2", data_testid="no-tokens"),
        ),
        spacing="3",
        width="100%",
    )


def _revoke_dialog() -> rx.Component:
    return confirm_dialog(
        title=_("Revoke this token?"),
        description=_(
            "{name} stops working at once, for every tool that uses it.",
            name=ApiAccessState.confirming_name,
        ),
        action=_("Revoke"),
        on_confirm=ApiAccessState.revoke,
        on_cancel=ApiAccessState.cancel_confirmation,
        busy=ApiAccessState.busy,
        is_open=ApiAccessState.confirming_id != "",
    )


def _how_to_call() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(_("Use the API"), as_="h2", size="4"),
            rx.text(
                _(
                    "Send the token in the Authorization header of each request. Every answer "
                    "is what you would see in the portal, in JSON; a token reads only and "
                    "makes no change. Each token may make a limited number of requests a "
                    "minute: beyond it, the answer is 429 with the seconds to wait in its "
                    "Retry-After header."
                ),
                size="2",
            ),
            rx.text(
                _("The address of the API:"),
                " ",
                rx.code(ApiAccessState.api_base, data_testid="api-base"),
                size="2",
            ),
            rx.link(
                rx.icon("book-open", size=14),
                _("The API reference: every call a token may make, with its answers"),
                href=ApiAccessState.reference_url,
                is_external=True,
                display="inline-flex",
                align_items="center",
                gap="6px",
                data_testid="api-reference",
            ),
            rx.text(_("Examples with your services:"), size="2", weight="medium"),
            rx.el.pre(
                ApiAccessState.examples.join("\n"),
                style={
                    **MONO,
                    "font_size": "13px",
                    "white_space": "pre-wrap",
                    "word_break": "break-all",
                    "padding": "12px",
                    "margin": "0",
                    "border_radius": "var(--radius-2)",
                    "background": rx.color("gray", 3),
                    "width": "100%",
                },
                data_testid="curl-examples",
            ),
            rx.button(
                rx.icon("copy", size=14),
                _("Copy the examples"),
                variant="soft",
                size="1",
                on_click=rx.set_clipboard(ApiAccessState.examples.join("\n")),
            ),
            spacing="3",
            align="start",
            width="100%",
        ),
        width="100%",
    )


def api_access_screen() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "A personal API token lets your own tools read your services, invoices, "
                "tickets, maintenances and monitoring through the API, with your rights: "
                "never more than you may read yourself, and nothing once your access ends."
            ),
            color=rx.color("gray", 11),
        ),
        rx.cond(ApiAccessState.new_token != "", _new_token()),
        rx.cond(
            SessionState.is_impersonating,
            rx.text(_("Only the user themself can make their API tokens.")),
            _form(),
        ),
        rx.cond(ApiAccessState.loaded, _list(), rx.spinner()),
        rx.cond(ApiAccessState.api_base != "", _how_to_call()),
        _revoke_dialog(),
        spacing="4",
        width="100%",
        max_width="760px",
    )
