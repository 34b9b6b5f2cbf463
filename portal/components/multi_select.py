"""A multi-select filter: a button naming the filter and how many values are chosen, opening
a list of checkboxes, optionally with a text box that narrows the list."""

from collections.abc import Sequence
from typing import Any

import reflex as rx
from pydantic import BaseModel
from reflex.vars import ArrayVar, ObjectVar

from portal.components.i18n import _


class Option(BaseModel):
    value: str
    label: str


def multi_select(
    label: rx.Var | str,
    *,
    options: ArrayVar | Sequence[tuple[str, rx.Var | str]],
    selected: ArrayVar,
    on_toggle: Any,
    on_clear: Any,
    test_id: str,
    search: rx.Var[str] | None = None,
    on_search: Any = None,
) -> rx.Component:
    """``options``: the state's options (a list of ``Option``), or fixed ``(value, label)``
    pairs (a status, say). ``on_toggle`` receives an option's value; ``on_search`` the text
    typed in the box."""

    def checkbox(value: Any, text: Any) -> rx.Component:
        return rx.checkbox(
            text, checked=selected.contains(value), on_change=on_toggle(value), size="2"
        )

    def item(option: ObjectVar[Option]) -> rx.Component:
        return checkbox(option.value, option.label)

    if isinstance(options, ArrayVar):
        items: rx.Component = rx.fragment(
            rx.foreach(options, item),
            rx.cond(
                options.length() == 0,
                rx.text(_("No result"), size="2", color=rx.color("gray", 11)),
            ),
        )
    else:
        items = rx.fragment(*(checkbox(value, text) for value, text in options))

    search_box = (
        rx.input(
            rx.input.slot(rx.icon("search", size=14)),
            value=search,
            on_change=on_search,
            placeholder=_("Filter the list"),
            aria_label=_("Filter the list"),
            size="2",
            auto_complete="off",
        )
        if search is not None and on_search is not None
        else rx.fragment()
    )
    return rx.popover.root(
        rx.popover.trigger(
            rx.button(
                label,
                rx.cond(
                    selected.length() > 0,
                    rx.badge(selected.length(), radius="full", variant="solid"),
                ),
                rx.icon("chevron-down", size=14),
                variant="surface",
                color_scheme="gray",
                data_testid=test_id,
            )
        ),
        rx.popover.content(
            rx.vstack(
                search_box,
                rx.scroll_area(
                    rx.vstack(
                        items,
                        spacing="2",
                        padding_right="12px",
                    ),
                    type="auto",
                    scrollbars="vertical",
                    max_height="320px",
                ),
                rx.button(
                    _("Clear"),
                    on_click=on_clear,
                    variant="ghost",
                    size="1",
                    disabled=selected.length() == 0,
                ),
                spacing="3",
                align="start",
            ),
            aria_label=label,
            max_width="min(360px, 90vw)",
        ),
    )
