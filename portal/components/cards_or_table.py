"""Cards or a table: the two ways a list screen shows its rows (spec 2: the services and
tickets lists), the choice kept in the browser for each screen (spec 4, Browser storage).

    class TicketsState(TicketList, CardsOrTable, SessionState):
        view_mode: str = view_mode_storage("tickets")

    view_switch(TicketsState)                   # in the filter row
    cards_or_table(TicketsState, cards(), table())
"""

from typing import TYPE_CHECKING

import reflex as rx

from portal.components.i18n import _

CARDS, TABLE = "card", "table"


def view_mode_storage(screen: str) -> rx.LocalStorage:
    """The browser's memory of a screen's choice, ``patchbay.<screen>.view``: cards at first."""
    return rx.LocalStorage(CARDS, name=f"patchbay.{screen}.view", sync=True)


class CardsOrTable(rx.State, mixin=True):
    """The choice and its event; the screen declares ``view_mode`` with its own storage."""

    if TYPE_CHECKING:
        view_mode: str

    @rx.event
    def set_view_mode(self, mode: str | list[str]):
        self.view_mode = TABLE if mode == TABLE else CARDS


def view_switch(state: type[CardsOrTable]) -> rx.Component:
    """The Cards / Table control."""
    return rx.segmented_control.root(
        rx.segmented_control.item(
            rx.hstack(rx.icon("layout-grid", size=14), _("Cards"), spacing="1"), value=CARDS
        ),
        rx.segmented_control.item(
            rx.hstack(rx.icon("table", size=14), _("Table"), spacing="1"), value=TABLE
        ),
        value=state.view_mode,
        on_change=state.set_view_mode,
        aria_label=_("View"),
    )


def cards_or_table(
    state: type[CardsOrTable], cards: rx.Component, table: rx.Component
) -> rx.Component:
    """The rows as the screen's choice shows them."""
    return rx.cond(state.view_mode == TABLE, table, cards)
