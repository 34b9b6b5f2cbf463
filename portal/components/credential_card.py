"""A card of one of the user's credentials (a personal API token, a passkey): what it is and its
dates on the left, what can be done with it on the right, or under it where the width is short."""

import reflex as rx


def moment_line(label: rx.Var | str, value: rx.Var) -> rx.Component:
    """``Created: 5 Dec 2026, 10:02``; a dash for a moment that has not come (never used)."""
    return rx.text(
        label, " ", rx.cond(value != "", value, "—"), size="2", color=rx.color("gray", 11)
    )


def credential_card(
    heading: rx.Component, details: list[rx.Component], actions: rx.Component, *, test_id: str
) -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(heading, *details, spacing="1", min_width="0"),
            actions,
            justify="between",
            align="start",
            gap="12px",
            wrap="wrap",
        ),
        width="100%",
        data_testid=test_id,
    )
