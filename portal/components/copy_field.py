"""A value shown once to be copied — a new API token, a webhook's signing secret: read-only,
selected on focus, in the code font, with a button that copies it and says so; and the callout
that shows it with what it is and a button to put it away."""

from typing import Any

import reflex as rx

from portal.components.i18n import _

MONO = {"font_family": "var(--code-font-family)"}


def copy_field(
    value: rx.Var[str] | str,
    copied: rx.Var[bool] | bool,
    on_copy: Any,
    label: rx.Var | str,
    test_id: str,
) -> rx.Component:
    return rx.flex(
        rx.input(
            value=value,
            read_only=True,
            flex="1",
            min_width="0",
            style=MONO,
            aria_label=label,
            data_testid=test_id,
            on_focus=rx.call_script("document.activeElement.select()"),
        ),
        rx.button(
            rx.cond(copied, rx.icon("check", size=14), rx.icon("copy", size=14)),
            rx.cond(copied, _("Copied"), _("Copy")),
            on_click=on_copy,
            variant="soft",
        ),
        spacing="2",
        width="100%",
        wrap="wrap",
    )


def shown_once(
    intro: rx.Var | str,
    value: rx.Var[str] | str,
    copied: rx.Var[bool] | bool,
    on_copy: Any,
    on_dismiss: Any,
    label: rx.Var | str,
    test_id: str,
) -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.icon("key-round")),
        rx.vstack(
            rx.text(intro, weight="medium", word_break="break-word"),
            copy_field(value, copied, on_copy, label, test_id),
            rx.button(_("I have copied it"), variant="outline", size="1", on_click=on_dismiss),
            spacing="2",
            width="100%",
        ),
        color_scheme="amber",
        width="100%",
    )
