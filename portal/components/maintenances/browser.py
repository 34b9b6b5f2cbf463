"""Maintenances as a list or a calendar, with the toggle between them and the dialog (spec 2:
the dashboard's maintenances card, the maintenances view). Give it the page's state, a
subclass of ``MaintenanceBrowser``:

    maintenances_browser(MaintenancesState)

The choice is one preference for every page (``MaintenanceViewPreference``, spec 4).
"""

import reflex as rx

from portal.components.i18n import _
from portal.components.maintenances.browser_state import (
    CALENDAR,
    LIST,
    MaintenanceBrowser,
    MaintenanceViewPreference,
)
from portal.components.maintenances.calendar import legend, maintenance_calendar
from portal.components.maintenances.dialog import maintenance_dialog
from portal.components.maintenances.table import maintenances_table


def view_toggle() -> rx.Component:
    return rx.segmented_control.root(
        rx.segmented_control.item(
            rx.hstack(rx.icon("list", size=14), _("List"), spacing="1"), value=LIST
        ),
        rx.segmented_control.item(
            rx.hstack(rx.icon("calendar-days", size=14), _("Calendar"), spacing="1"),
            value=CALENDAR,
        ),
        value=MaintenanceViewPreference.mode,
        on_change=MaintenanceViewPreference.set_mode,
        aria_label=_("View"),
        data_testid="maintenances-view",
    )


def _calendar(state: type[MaintenanceBrowser]) -> rx.Component:
    return rx.vstack(
        rx.flex(
            legend(),
            rx.cond(state.calendar_loading, rx.spinner(size="2")),
            align="center",
            spacing="4",
        ),
        rx.box(
            maintenance_calendar(
                state.calendar_events, on_open=state.open_maintenance, on_period=state.show_period
            ),
            width="100%",
            aria_busy=state.calendar_loading,
        ),
        spacing="3",
        width="100%",
    )


def maintenances_browser(state: type[MaintenanceBrowser], *toolbar: rx.Component) -> rx.Component:
    """The toggle (after any ``toolbar`` components), then the table or the calendar, and the
    dialog both open."""
    return rx.vstack(
        rx.flex(
            *toolbar,
            rx.spacer(),
            view_toggle(),
            align="center",
            wrap="wrap",
            spacing="3",
            width="100%",
        ),
        rx.cond(
            MaintenanceViewPreference.mode == CALENDAR,
            _calendar(state),
            maintenances_table(state),
        ),
        maintenance_dialog(state),
        spacing="3",
        width="100%",
    )
