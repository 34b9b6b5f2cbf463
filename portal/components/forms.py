"""Form fields with their label, and the validation message under them."""

from typing import Any

import reflex as rx


def field(
    label: rx.Var | str,
    control: rx.Component,
    error: rx.Var | str | None = None,
    show_error: rx.Var | bool = False,
    hint: rx.Var | str | None = None,
) -> rx.Component:
    return rx.vstack(
        rx.el.label(rx.text(label, size="2", weight="medium"), html_for=control.id),
        control,
        rx.cond(show_error, rx.text(error, size="1", color=rx.color("red", 11), role="alert"))
        if error is not None
        else rx.fragment(),
        rx.text(hint, size="1", color=rx.color("gray", 10)) if hint is not None else rx.fragment(),
        spacing="1",
        width="100%",
    )


def one_time_code_input(
    id_: str, value: rx.Var[str] | str, on_change: Any, **props: Any
) -> rx.Component:
    """The field of a code from an authenticator app: the browser may fill it from an SMS or a
    password manager, and a phone shows its digit keyboard."""
    return rx.input(
        id=id_,
        name="code",
        auto_complete="one-time-code",
        input_mode="numeric",
        value=value,
        on_change=on_change,
        size="3",
        **props,
    )
