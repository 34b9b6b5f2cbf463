"""Choosing companies by typing part of their name: the search box, the list of matches and the
chips of the companies chosen. The user form (company, auxiliary companies) and the contacts
page (the companies whose contacts to show) draw their pickers from these parts."""

from typing import Any

import reflex as rx
from pydantic import BaseModel
from reflex.vars import ArrayVar, ObjectVar

from portal.components.i18n import _

SEARCH_DEBOUNCE_MS = 500  # spec 9: company search


class CompanyOption(BaseModel):
    id: str = ""
    name: str = ""


def company_search(
    input_id: str, value: rx.Var, on_change: Any, label: rx.Var, **props: Any
) -> rx.Component:
    """The search box; ``on_change`` receives the text once typing pauses."""
    return rx.input(
        rx.input.slot(rx.icon("search", size=16)),
        id=input_id,
        type="search",
        value=value,
        on_change=on_change,
        debounce_timeout=SEARCH_DEBOUNCE_MS,
        placeholder=_("Type at least 2 characters"),
        aria_label=label,
        auto_complete="off",
        width="100%",
        **props,
    )


def company_matches(matches: ArrayVar, on_choose: Any, **props: Any) -> rx.Component:
    """The companies found, as a list box; ``on_choose`` receives the ``CompanyOption``."""

    def option(company: ObjectVar[CompanyOption]) -> rx.Component:
        return rx.button(
            company.name,
            type="button",
            role="option",
            variant="ghost",
            justify="start",
            width="100%",
            on_click=on_choose(company),
        )

    return rx.cond(
        matches.length() > 0,
        rx.vstack(
            rx.foreach(matches, option),
            role="listbox",
            spacing="1",
            width="100%",
            padding="6px",
            border=f"1px solid {rx.color('gray', 6)}",
            border_radius="var(--radius-3)",
            **props,
        ),
    )


def company_chip(
    name: rx.Var, on_remove: Any, *, removable: rx.Var[bool] | bool = True
) -> rx.Component:
    """A company chosen, with a button that removes it while ``removable``."""
    return rx.badge(
        name,
        rx.cond(
            removable,
            rx.icon_button(
                rx.icon("x", size=12),
                type="button",
                size="1",
                variant="ghost",
                aria_label=_("Remove {name}", name=name),
                on_click=on_remove,
            ),
        ),
        size="2",
        variant="soft",
        radius="full",
    )
