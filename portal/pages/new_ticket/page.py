"""A new ticket (issue 49, item 1), from the tickets list or a service's page."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.new_ticket.state import NewTicketState
from portal.pages.new_ticket.views import new_ticket_form


@page(
    routes.NEW_TICKET,
    crumbs=((_(routes.TICKETS.label), routes.TICKETS.path), (_(routes.NEW_TICKET.label), "")),
    on_load=[NewTicketState.load],
)
def new_ticket() -> rx.Component:
    return new_ticket_form()
