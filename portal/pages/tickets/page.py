"""Tickets (spec 2): the tickets tab (tiles, filters bound to the URL, cards or a table) and
the ticket process tab."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.tickets.process import process_tab
from portal.pages.tickets.state import TicketsState
from portal.pages.tickets.views import tickets_tab


@page(routes.TICKETS, on_load=[TicketsState.load])
def tickets() -> rx.Component:
    return rx.tabs.root(
        rx.tabs.list(
            rx.tabs.trigger(_("Tickets"), value="tickets"),
            rx.tabs.trigger(_("Ticket process"), value="process"),
        ),
        rx.tabs.content(tickets_tab(), value="tickets", padding_top="16px"),
        rx.tabs.content(process_tab(), value="process", padding_top="16px"),
        default_value="tickets",
        width="100%",
    )
