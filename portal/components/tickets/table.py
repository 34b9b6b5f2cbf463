"""The tickets table (spec 2): number (a link), status, priority, subject (cut, whole on
hover), account name and creation date; for any list state of tickets."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.data_table import Column, data_table
from portal.components.i18n import _
from portal.components.ticket_status import priority_chip, ticket_status_chip
from portal.components.tickets.models import TicketRow
from portal.components.tickets.state import TicketList
from portal.i18n import N_

COLUMNS = (
    Column(N_("Id"), "id"),
    Column(N_("Status"), "status"),
    Column(N_("Priority"), "priority"),
    Column(N_("Subject"), "subject"),
    Column(N_("Account name"), "accountName"),
    Column(N_("Created"), "dateCreated"),
)


def unread_marker(ticket: ObjectVar[TicketRow]) -> rx.Component:
    """A provider reply not read yet: an icon and words, never a colour alone (issue 49)."""
    return rx.cond(
        ticket.unread,
        rx.badge(
            rx.icon("message-circle-reply", size=12),
            _("New reply"),
            color_scheme="purple",
            variant="solid",
            radius="full",
            size="1",
            white_space="nowrap",
            data_testid="ticket-unread",
        ),
    )


def _cells(ticket: ObjectVar[TicketRow]) -> list[rx.Component | rx.Var]:
    return [
        rx.hstack(
            rx.link(ticket.number, href=ticket.path, weight="medium", white_space="nowrap"),
            unread_marker(ticket),
            align="center",
            spacing="2",
        ),
        ticket_status_chip(ticket.status),
        priority_chip(ticket.priority),
        rx.text(
            ticket.subject,
            title=ticket.subject,
            max_width="320px",
            overflow="hidden",
            text_overflow="ellipsis",
            white_space="nowrap",
            data_testid="ticket-subject",
        ),
        rx.text(ticket.account_name, min_width="120px"),
        rx.text(ticket.date_created, white_space="nowrap"),
    ]


def tickets_table(state: type[TicketList]) -> rx.Component:
    return data_table(state, columns=COLUMNS, cells=_cells, label=_("Tickets"))
