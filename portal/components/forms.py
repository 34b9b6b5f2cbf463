"""Form fields with their label, and the validation message under them."""

from typing import Any

import reflex as rx
from reflex.components.component import BaseComponent


def field(
    label: rx.Var | str,
    control: rx.Component,
    error: rx.Var | str | None = None,
    show_error: rx.Var | bool = False,
    hint: rx.Var | str | None = None,
) -> rx.Component:
    """The label names the control: its ``for`` is the control's id, or the id of the first
    element inside it that has one (a select's is its trigger's). The error and the hint
    describe it (``aria-describedby``, WCAG 1.3.1 and 3.3.1): a screen reader reads them with
    the field, and the error, an alert, is announced as it shows."""
    labelled = _labelled(control)
    target = labelled.id if labelled is not None else None
    hint_id, error_id = (
        (f"{target}-hint", f"{target}-error") if target is not None else (None, None)
    )
    if labelled is not None and hint_id and error_id and (hint is not None or error is not None):
        described: list[str] = [hint_id] if hint is not None else []
        shown = " ".join([error_id, *described])
        labelled.custom_attrs["aria-describedby"] = (
            rx.cond(show_error, shown, " ".join(described)) if error is not None else shown
        )
    return rx.vstack(
        rx.el.label(rx.text(label, size="2", weight="medium"), html_for=target),
        control,
        rx.cond(
            show_error,
            rx.text(error, size="1", color=rx.color("red", 11), role="alert", id=error_id),
        )
        if error is not None
        else rx.fragment(),
        rx.text(hint, size="1", color=rx.color("gray", 11), id=hint_id)
        if hint is not None
        else rx.fragment(),
        spacing="1",
        width="100%",
    )


def _labelled(control: BaseComponent) -> rx.Component | None:
    """The element the label is for: the control, or the first element inside it with an id."""
    if isinstance(control, rx.Component) and control.id is not None:
        return control
    return next(filter(None, map(_labelled, control.children)), None)


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
