"""The tickets tab: tiles, filter row, count, then cards or a table, and the pages."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.client.models import TicketFilters
from portal.components.cards_or_table import cards_or_table, view_switch
from portal.components.data_table import (
    clear_filters_button,
    list_count,
    loading_overlay,
    pager,
    status_filter,
)
from portal.components.i18n import _
from portal.components.paging import ASCENDING
from portal.components.ticket_status import (
    NOT_CLOSED,
    STATUS_LABELS,
    priority_chip,
    ticket_state_chip,
    ticket_status_chip,
)
from portal.components.tickets.models import TicketRow
from portal.components.tickets.query import tickets_url
from portal.components.tickets.table import tickets_table, unread_marker
from portal.components.tiles import count_tile
from portal.i18n import N_
from portal.pages.tickets.state import TicketsState
from portal.permissions import WRITE_TICKETS

TEXT_DEBOUNCE_MS = 500  # spec 9
filters: ObjectVar[TicketFilters] = TicketsState.filters.to(ObjectVar, TicketFilters)
CARD_SORTS = (
    ("dateCreated", N_("Creation date")),
    ("id", N_("Id")),
    ("priority", N_("Priority")),
    ("status", N_("Status")),
    ("subject", N_("Subject")),
    ("accountName", N_("Account name")),
)


def tiles() -> rx.Component:
    path = routes.TICKETS.path
    return rx.grid(
        count_tile(
            _("Open tickets"),
            TicketsState.open_count,
            tickets_url(path, list(NOT_CLOSED)),
            icon="inbox",
            color="purple",
            loading=TicketsState.counting,
            test_id="tile-open",
        ),
        count_tile(
            _("Active tickets"),
            TicketsState.active_count,
            tickets_url(path, ["active"]),
            icon="circle-dot",
            color="green",
            loading=TicketsState.counting,
            test_id="tile-active",
        ),
        count_tile(
            _("Closed tickets"),
            TicketsState.closed_count,
            tickets_url(path, ["closed"]),
            icon="circle-check",
            color="gray",
            loading=TicketsState.counting,
            test_id="tile-closed",
        ),
        columns=rx.breakpoints(initial="1", sm="3"),
        spacing=rx.breakpoints(initial="2", sm="4"),
        width="100%",
    )


def _new_ticket() -> rx.Component:
    return rx.cond(
        TicketsState.allows(WRITE_TICKETS) & ~TicketsState.user_writes_blocked,
        # On a phone the filters and the view switch fill the width: the list's one action
        # comes first, on a row of its own, rather than wrapped under the switch.
        rx.link(
            rx.button(rx.icon("plus", size=16), _("New ticket"), width="100%"),
            href=routes.NEW_TICKET.path,
            data_testid="new-ticket",
            order=rx.breakpoints(initial="-1", sm="0"),
            width=rx.breakpoints(initial="100%", sm="auto"),
        ),
    )


def filter_row() -> rx.Component:
    return rx.flex(
        rx.input(
            rx.input.slot(rx.text("#", size="2", color=rx.color("gray", 10))),
            id="tickets-id",
            value=filters.id,
            on_change=lambda text: TicketsState.set_filter("id", text),
            debounce_timeout=TEXT_DEBOUNCE_MS,
            placeholder=_("Id"),
            aria_label=_("Ticket number"),
            auto_complete="off",
            input_mode="numeric",
            width=rx.breakpoints(initial="100%", sm="140px"),
        ),
        status_filter(TicketsState, filters.statuses, STATUS_LABELS),
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id="tickets-subject",
            type="search",
            value=filters.subject,
            on_change=lambda text: TicketsState.set_filter("subject", text),
            debounce_timeout=TEXT_DEBOUNCE_MS,
            placeholder=_("Subject"),
            aria_label=_("Subject"),
            auto_complete="off",
            width=rx.breakpoints(initial="100%", md="300px"),
        ),
        clear_filters_button(TicketsState),
        rx.spacer(),
        view_switch(TicketsState),
        _new_ticket(),
        spacing="3",
        align="center",
        wrap="wrap",
        width="100%",
    )


def _count() -> rx.Component:
    return list_count(
        TicketsState,
        _("1 ticket found"),
        _("{count} tickets found", count=TicketsState.total),
        test_id="tickets-count",
    )


def _card_sort() -> rx.Component:
    ascending = TicketsState.sort_direction == ASCENDING
    return rx.hstack(
        rx.text(_("Sort by"), size="2", color=rx.color("gray", 11)),
        rx.select.root(
            rx.select.trigger(aria_label=_("Sort by"), data_testid="card-sort"),
            rx.select.content(
                *(rx.select.item(_(label), value=field) for field, label in CARD_SORTS)
            ),
            value=TicketsState.sort_field,
            on_change=TicketsState.sort_cards_by,
            size="2",
        ),
        rx.icon_button(
            rx.cond(ascending, rx.icon("arrow-up-narrow-wide"), rx.icon("arrow-down-wide-narrow")),
            on_click=TicketsState.flip_direction,
            variant="soft",
            aria_label=rx.cond(ascending, _("Ascending"), _("Descending")),
            title=rx.cond(ascending, _("Ascending"), _("Descending")),
            data_testid="card-direction",
        ),
        align="center",
        spacing="2",
    )


def _card(ticket: ObjectVar[TicketRow]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.hstack(
                    rx.link(ticket.number, href=ticket.path, weight="bold", size="3"),
                    unread_marker(ticket),
                    align="center",
                    spacing="2",
                ),
                ticket_state_chip(ticket.status),
                justify="between",
                align="center",
                width="100%",
            ),
            rx.text(ticket.subject, size="2", weight="medium", color=rx.color("gray", 12)),
            rx.hstack(
                ticket_status_chip(ticket.status),
                priority_chip(ticket.priority),
                spacing="2",
                wrap="wrap",
            ),
            rx.text(ticket.account_name, size="2", color=rx.color("gray", 11)),
            rx.text(
                _("Created on {date}", date=ticket.date_created),
                size="1",
                color=rx.color("gray", 11),
            ),
            spacing="2",
            width="100%",
        ),
        height="100%",
        data_testid="ticket-card",
    )


def cards() -> rx.Component:
    empty = rx.center(
        rx.text(_("No result"), color=rx.color("gray", 11)), padding_y="32px", width="100%"
    )
    return rx.vstack(
        _card_sort(),
        rx.box(
            rx.grid(
                rx.foreach(TicketsState.rows, _card),
                columns=rx.breakpoints(initial="1", sm="2", md="3", lg="4"),
                spacing="4",
                width="100%",
            ),
            rx.cond(~TicketsState.loading & (TicketsState.rows.length() == 0), empty),
            loading_overlay(TicketsState.loading),
            min_height="120px",
            aria_busy=TicketsState.loading,
            position="relative",
            width="100%",
        ),
        rx.box(pager(TicketsState), width="100%"),
        spacing="4",
        width="100%",
    )


def table() -> rx.Component:
    return rx.card(tickets_table(TicketsState), width="100%", overflow_x="auto")


def tickets_tab() -> rx.Component:
    return rx.vstack(
        tiles(),
        filter_row(),
        _count(),
        cards_or_table(TicketsState, cards(), table()),
        spacing="4",
        width="100%",
    )
