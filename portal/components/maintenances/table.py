"""The maintenance table (spec 2): reference (opens the dialog), duration, classification,
status, start, end and notification date; the three dates sort, and a sort always holds."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.data_table import Column, data_table
from portal.components.i18n import _
from portal.components.maintenances.dialog import classification_chip, hours_label
from portal.components.maintenances.models import MaintenanceRow
from portal.components.maintenances.state import MaintenanceList
from portal.i18n import N_

COLUMNS = (
    Column(N_("Reference")),
    Column(N_("Duration")),
    Column(N_("Classification")),
    Column(N_("Status")),
    Column(N_("Start"), "dateStart"),
    Column(N_("End"), "dateEnd"),
    Column(N_("Notification date"), "dateNotification"),
)


def _cancelled(row: ObjectVar[MaintenanceRow]) -> rx.Var[bool]:
    return row.status == "cancelled"


def _cells(
    state: type[MaintenanceList], row: ObjectVar[MaintenanceRow]
) -> list[rx.Component | rx.Var]:
    struck = rx.cond(_cancelled(row), "line-through", "none")
    return [
        rx.button(
            row.reference,
            on_click=state.open_maintenance(row.id),
            variant="ghost",
            size="2",
            white_space="nowrap",
            text_decoration=struck,
        ),
        rx.text(hours_label(row.hours), white_space="nowrap"),
        classification_chip(row),
        rx.text(row.status_label, text_decoration=struck, white_space="nowrap"),
        rx.text(row.start, white_space="nowrap"),
        rx.text(row.end, white_space="nowrap"),
        rx.text(row.notification, white_space="nowrap"),
    ]


def maintenances_table(state: type[MaintenanceList]) -> rx.Component:
    return rx.box(
        data_table(
            state,
            columns=COLUMNS,
            cells=lambda row: _cells(state, row),
            label=_("Maintenances"),
        ),
        width="100%",
        overflow_x="auto",
    )
