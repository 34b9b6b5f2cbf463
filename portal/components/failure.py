"""A section that could not be loaded, said where its content would be: what failed, why (the
message handler's text, ``failure_text``) and Try again. The handler that loads the section
reports with ``in_place=True``, so no toast says it a second time (docs/decisions/error-path.md)."""

from typing import Any

import reflex as rx

from portal.components.i18n import _


def failure_callout(what: rx.Var, why: rx.Var[str], retry: Any, *, test_id: str) -> rx.Component:
    return rx.callout(
        rx.flex(
            rx.text(rx.text.strong(what), " ", why),
            rx.button(_("Try again"), on_click=retry, size="1", variant="soft"),
            align="center",
            spacing="3",
            wrap="wrap",
        ),
        icon="triangle-alert",
        color_scheme="orange",
        width="100%",
        data_testid=test_id,
    )
