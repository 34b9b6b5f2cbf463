"""A confirmation before what cannot be undone (spec 8's confirm dialogs): a title, what will
happen, Cancel, and the action in the danger colour; 400 px wide. ``Confirmation`` is the state
of a list whose rows each have such an action (a token revoked, a webhook or passkey deleted)."""

from typing import Any

import reflex as rx

from portal.components.i18n import _


class Confirmation(rx.State, mixin=True):
    """The row whose action waits for the user's yes, and its name for the dialog's sentence.
    The screen's own handler acts on ``confirming_id`` and then calls ``forget_confirmation``."""

    confirming_id: str = ""
    confirming_name: str = ""

    @rx.event
    def ask_confirmation(self, item_id: str, name: str):
        self.confirming_id, self.confirming_name = item_id, name

    @rx.event
    def cancel_confirmation(self):
        self.forget_confirmation()

    def forget_confirmation(self) -> None:
        self.confirming_id = self.confirming_name = ""


def confirm_dialog(
    *,
    title: rx.Var | str,
    description: rx.Var | str,
    action: rx.Var | str,
    on_confirm: Any,
    on_cancel: Any,
    busy: rx.Var[bool] | bool,
    is_open: rx.Var[bool] | bool,
) -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(description, size="2"),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(_("Cancel"), variant="soft", color_scheme="gray", on_click=on_cancel)
                ),
                rx.button(
                    action,
                    color_scheme="red",
                    # White on red-9 is 3.9:1; the high-contrast fill passes in both themes.
                    high_contrast=True,
                    on_click=on_confirm,
                    loading=busy,
                ),
                justify="end",
                spacing="3",
                margin_top="16px",
            ),
            max_width="400px",
        ),
        open=is_open,
    )
