"""Tiles: a number or an amount and what it sums up, linking to the list it summarises."""

from typing import Literal

import reflex as rx

TileColor = Literal["gray", "green", "orange", "red", "purple", "blue", "amber"]


def count_tile(
    label: rx.Var | str,
    count: rx.Var[int] | rx.Var[str],
    href: rx.Var[str] | str,
    *,
    icon: str,
    color: TileColor,
    loading: rx.Var[bool],
    test_id: str,
) -> rx.Component:
    return rx.link(
        rx.card(
            rx.hstack(
                rx.center(
                    rx.icon(icon, size=22, color="white"),
                    background_color=rx.color(color, 9),
                    border_radius="var(--radius-3)",
                    width="44px",
                    height="44px",
                    flex_shrink="0",
                ),
                rx.vstack(
                    rx.cond(
                        loading,
                        rx.skeleton(rx.text("00"), loading=True),
                        # Not a paragraph: a big bold one above another reads as a heading
                        # (axe's p-as-heading, WCAG 1.3.1); the link reads "23 Open tickets".
                        rx.text(count, as_="div", size="6", weight="bold", data_testid=test_id),
                    ),
                    rx.text(label, size="2", color=rx.color("gray", 11)),
                    spacing="0",
                ),
                spacing="3",
                align="center",
            ),
            _hover={"box_shadow": "var(--shadow-3)"},
            height="100%",
        ),
        href=href,
        underline="none",
        color="inherit",
    )
