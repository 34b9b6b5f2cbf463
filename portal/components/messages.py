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
STACK_TOP_PX, STACK_GAP_PX = 70, 60  # spec 9
_COLORS = {"success": "grass", "info": "blue", "warning": "amber", "error": "red"}


@rx.memo
def _snackbar(
    message_id: rx.Var[str],
    text: rx.Var[str],
    kind: rx.Var[str],
    top: rx.Var[str],
    rest: rx.RestProp,
) -> rx.Component:
    # A component of its own, so that each snackbar, once mounted, asks for its own expiry.
    return rx.callout.root(
        rest,
        rx.callout.icon(
            rx.match(
                kind,
                *((name, rx.icon(icon, size=18)) for name, icon in _ICONS.items()),
                rx.icon("info", size=18),
            )
        ),
        rx.callout.text(text, flex="1"),
        rx.icon_button(
            rx.icon("x", size=14),
            variant="ghost",
            size="1",
            color_scheme="gray",
            aria_label=_("Close"),
            on_click=MessagesState.dismiss(message_id),
        ),
        color_scheme=rx.match(kind, *(_COLORS.items()), "blue"),
        variant="surface",
        role=rx.cond(kind == "error", "alert", "status"),
        position="fixed",
        top=top,
        right="16px",
        z_index="2000",
        max_width="min(480px, calc(100vw - 32px))",
        box_shadow="var(--shadow-4)",
        background_color="var(--color-panel-solid)",
        display="flex",
        align_items="center",
        on_mount=MessagesState.expire(message_id),
    )


def _stacked(message: Message, index: NumberVar) -> rx.Component:
    return _snackbar(
        message_id=message.id,
        text=message.text,
        kind=message.kind,
        top=(index * STACK_GAP_PX + STACK_TOP_PX).to_string() + "px",
        # One element per message, so a new message mounts (and asks for its expiry) even
        # where it takes the place of another in the same update.
        key=message.id,
    )


def message_stack() -> rx.Component:
    return rx.fragment(rx.foreach(MessagesState.messages, _stacked))
