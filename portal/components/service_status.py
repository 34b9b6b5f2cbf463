"""The service status chip (spec 4): under construction grey, active green and labelled
Operational, under termination orange, terminated red, any other value white."""

import reflex as rx

from portal.components.i18n import _
from portal.i18n import N_

STATUS_LABELS: dict[str, str] = {
    "under_construction": N_("Under construction"),
    "active": N_("Operational"),
    "under_termination": N_("Under termination"),
    "terminated": N_("Terminated"),
}
STATUS_COLORS: dict[str, str] = {
    "under_construction": "gray",
    "active": "green",
    "under_termination": "orange",
    "terminated": "red",
}


def status_label(status: rx.Var[str]) -> rx.Var:
    """The status in the current language; an unknown status shows as sent."""
    return rx.match(status, *((key, _(label)) for key, label in STATUS_LABELS.items()), status)


def status_chip(status: rx.Var[str]) -> rx.Component:
    known = rx.Var.create(list(STATUS_COLORS)).contains(status)
    return rx.badge(
        status_label(status),
        color_scheme=rx.match(status, *STATUS_COLORS.items(), "gray"),
        variant=rx.cond(known, "solid", "outline"),
        background_color=rx.cond(known, "", "white"),
        color=rx.cond(known, "", "black"),
        radius="full",
        size="2",
        white_space="nowrap",
        data_status=status,
    )
