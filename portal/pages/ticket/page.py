"""A ticket (spec 2, Ticket detail): its fields, description and attachments."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.ticket.state import TicketState
from portal.pages.ticket.views import ticket_page, ticket_title


@page(
    routes.TICKET,
    crumbs=((_(routes.TICKETS.label), routes.TICKETS.path), (ticket_title(), "")),
    crumbs_shown=TicketState.status != "missing",
    title=ticket_title(),
    on_load=[TicketState.load],
)
def ticket() -> rx.Component:
    return ticket_page()
