"""The passkeys card of the two-step login page (issue 52): one's passkeys with their dates,
rename and delete, and a new one added with a name."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.confirm_dialog import confirm_dialog
from portal.components.credential_card import credential_card, moment_line
from portal.components.forms import field
from portal.components.i18n import _
from portal.pages.second_factor.passkeys_state import PasskeyRow, PasskeysState
from portal.state.session import SessionState


def _rename_form(row: ObjectVar[PasskeyRow]) -> rx.Component:
    return rx.form(
        rx.flex(
            field(
                _("Name"),
                rx.input(
                    id="rename-passkey",
                    name="name",
                    value=PasskeysState.rename_value,
                    on_change=PasskeysState.set_rename_value,
                    max_length=100,
                    auto_focus=True,
                    width="100%",
                ),
                PasskeysState.rename_error,
                PasskeysState.rename_error != "",
            ),
            rx.button(_("Save"), type="submit"),
            rx.button(
                _("Cancel"),
                type="button",
                variant="soft",
                color_scheme="gray",
                on_click=PasskeysState.cancel_rename,
            ),
            spacing="2",
            align="end",
            wrap="wrap",
        ),
        on_submit=PasskeysState.rename,
        reset_on_submit=False,
        width="100%",
    )


def _passkey(row: ObjectVar[PasskeyRow]) -> rx.Component:
    return rx.cond(
        PasskeysState.renaming_id == row.id,
        rx.card(_rename_form(row), width="100%", data_testid="passkey-row"),
        credential_card(
            rx.hstack(rx.icon("key-round", size=16), rx.text(row.name, weight="bold")),
            [moment_line(_("Created:"), row.created), moment_line(_("Last used:"), row.last_used)],
            rx.flex(
                rx.button(
                    rx.icon("pencil", size=14),
                    _("Rename"),
                    variant="soft",
                    on_click=PasskeysState.ask_rename(row.id, row.name),
                ),
                rx.button(
                    rx.icon("trash-2", size=14),
                    _("Delete"),
                    variant="soft",
                    color_scheme="red",
                    on_click=PasskeysState.ask_confirmation(row.id, row.name),
                ),
                spacing="2",
                wrap="wrap",
            ),
            test_id="passkey-row",
        ),
    )


def _add_form() -> rx.Component:
    return rx.form(
        rx.flex(
            field(
                _("Name of the new passkey"),
                rx.input(
                    id="new-passkey-name",
                    name="name",
                    value=PasskeysState.new_passkey_name,
                    on_change=PasskeysState.set_new_passkey_name,
                    placeholder=_("e.g. Work laptop"),
                    max_length=100,
                    width="100%",
                ),
            ),
            rx.button(
                rx.icon("plus", size=16),
                _("Add a passkey"),
                type="submit",
                loading=PasskeysState.registering,
            ),
            spacing="3",
            align="end",
            wrap="wrap",
        ),
        on_submit=PasskeysState.add_passkey,
        reset_on_submit=False,
        width="100%",
    )


def _body() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "A passkey logs you in without a password, with your device's fingerprint, "
                "face or PIN, and serves as your second factor after a password. It only "
                "works on this portal, so it cannot be phished."
            )
        ),
        rx.cond(
            PasskeysState.passkey_error != "",
            rx.callout(
                PasskeysState.passkey_error, icon="circle-x", color_scheme="red", role="alert"
            ),
        ),
        rx.cond(
            PasskeysState.passkey_rows.length() > 0,
            rx.vstack(rx.foreach(PasskeysState.passkey_rows, _passkey), spacing="2", width="100%"),
            rx.text(_("You have no passkey."), size="2", data_testid="no-passkeys"),
        ),
        _add_form(),
        confirm_dialog(
            title=_("Delete this passkey?"),
            description=_(
                "{name} will no longer log you in. Remove it from your device too.",
                name=PasskeysState.confirming_name,
            ),
            action=_("Delete"),
            on_confirm=PasskeysState.delete,
            on_cancel=PasskeysState.cancel_confirmation,
            busy=PasskeysState.registering,
            is_open=PasskeysState.confirming_id != "",
        ),
        spacing="4",
        align="start",
        width="100%",
    )


def passkeys_card() -> rx.Component:
    return rx.card(
        rx.flex(
            rx.heading(_("Passkeys"), as_="h2", size="4"),
            rx.badge(PasskeysState.passkey_rows.length().to(str), color_scheme="gray", size="2"),
            justify="between",
            align="center",
            margin_bottom="16px",
        ),
        rx.cond(
            SessionState.is_impersonating,
            rx.text(_("Only the user themself can change their passkeys.")),
            rx.cond(PasskeysState.passkeys_loaded, _body(), rx.spinner()),
        ),
        width="100%",
        max_width="760px",
    )
