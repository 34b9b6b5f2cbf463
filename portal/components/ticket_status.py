"""Ticket chips (spec 4, Ticket status): the status, coloured by what it asks of whom; the
state a ticket is shown as (active unless it is closed); and the priority.

The spec names the statuses and the active/closed split, not their colours: closed grey,
solved and service restored green, open and in progress blue, waiting amber, on hold orange
(docs/decisions/tickets-screens.md). An unknown status shows as sent, outlined.
"""

import reflex as rx

from portal.components.i18n import _
from portal.i18n import N_

STATUS_LABELS: dict[str, str] = {
    "active": N_("Active"),
    "open": N_("Open"),
    "inProgress": N_("In progress"),
    "waitingForAction": N_("Waiting for action"),
    "waitingForAcceptance": N_("Waiting for acceptance"),
    "onHold": N_("On hold"),
    "onHoldRFO": N_("On hold (RFO)"),
    "onHoldCustomerFeedbackRequired": N_("On hold, customer feedback required"),
    "restoredService": N_("Service restored"),
    "solved": N_("Solved"),
    "closed": N_("Closed"),
}
STATUS_COLORS: dict[str, str] = {
    "active": "blue",
    "open": "blue",
    "inProgress": "blue",
    "waitingForAction": "amber",
    "waitingForAcceptance": "amber",
    "onHold": "orange",
    "onHoldRFO": "orange",
    "onHoldCustomerFeedbackRequired": "orange",
    "restoredService": "green",
    "solved": "green",
    "closed": "gray",
}
PRIORITY_LABELS: dict[str, str] = {
    "low": N_("Low"),
    "medium": N_("Medium"),
    "high": N_("High"),
    "critical": N_("Critical"),
}
PRIORITY_COLORS: dict[str, str] = {
    "low": "gray",
    "medium": "blue",
    "high": "orange",
    "critical": "red",
}
# Every status but closed: the open tickets of the tiles (spec 2, Dashboard).
NOT_CLOSED: tuple[str, ...] = tuple(status for status in STATUS_LABELS if status != "closed")


def status_label(status: rx.Var[str]) -> rx.Var:
    """The status in the current language; an unknown status shows as sent."""
    return rx.match(status, *((key, _(label)) for key, label in STATUS_LABELS.items()), status)


def _chip(label: rx.Var, color: rx.Var, known: rx.Var[bool], **props) -> rx.Component:
    return rx.badge(
        label,
        color_scheme=color,
        variant=rx.cond(known, "soft", "outline"),
        radius="full",
        size="2",
        white_space="nowrap",
        **props,
    )


def ticket_status_chip(status: rx.Var[str]) -> rx.Component:
    known = rx.Var.create(list(STATUS_COLORS)).contains(status)
    color = rx.match(status, *STATUS_COLORS.items(), "gray")
    return _chip(status_label(status), color, known, data_status=status)


def ticket_state_chip(status: rx.Var[str]) -> rx.Component:
    """Active or closed, as a card shows a ticket (spec 2, Tickets: card)."""
    closed = status == "closed"
    return rx.badge(
        rx.cond(closed, rx.icon("circle-check", size=12), rx.icon("circle-dot", size=12)),
        rx.cond(closed, _("Closed"), _("Active")),
        color_scheme=rx.cond(closed, "gray", "green"),
        variant="solid",
        radius="full",
        size="2",
        white_space="nowrap",
        data_state=rx.cond(closed, "closed", "active"),
    )


def priority_chip(priority: rx.Var[str]) -> rx.Component:
    known = rx.Var.create(list(PRIORITY_COLORS)).contains(priority)
    label = rx.match(
        priority, *((key, _(label)) for key, label in PRIORITY_LABELS.items()), priority
    )
    color = rx.match(priority, *PRIORITY_COLORS.items(), "gray")
    return _chip(label, color, known, data_priority=priority)
