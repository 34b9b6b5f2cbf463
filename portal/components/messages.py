"""The stacked message snackbars: 70 px from the top, 60 px apart (spec 9)."""

import reflex as rx
from reflex.vars import NumberVar

from portal.components.i18n import _
from portal.state.messages import Message, MessagesState

_ICONS = {
    "success": "circle-check",
    "info": "info",
    "warning": "triangle-alert",
    "error": "circle-x",
}
_COLORS = {"success": "grass", "info": "blue", "warning": "amber", "error": "red"}


def _snackbar(message: Message, index: NumberVar) -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(
            rx.match(
                message.kind,
                *((kind, rx.icon(icon, size=18)) for kind, icon in _ICONS.items()),
                rx.icon("info", size=18),
            )
        ),
        rx.callout.text(message.text, flex="1"),
        rx.icon_button(
            rx.icon("x", size=14),
            variant="ghost",
            size="1",
            color_scheme="gray",
            aria_label=_("Close"),
            on_click=MessagesState.dismiss(message.id),
        ),
        color_scheme=rx.match(message.kind, *(_COLORS.items()), "blue"),
        variant="surface",
        role=rx.cond(message.kind == "error", "alert", "status"),
        position="fixed",
        top=(index * 60 + 70).to_string() + "px",
        right="16px",
        z_index="2000",
        max_width="min(480px, calc(100vw - 32px))",
        box_shadow="var(--shadow-4)",
        background_color="var(--color-panel-solid)",
        display="flex",
        align_items="center",
    )


def message_stack() -> rx.Component:
    return rx.fragment(rx.foreach(MessagesState.messages, _snackbar))
