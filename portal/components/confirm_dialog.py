"""A confirmation before what cannot be undone (spec 8's confirm dialogs): a title, what will
happen, Cancel, and the action in the danger colour; 400 px wide."""

from typing import Any

import reflex as rx

from portal.components.i18n import _


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
