"""Maintenances (spec 2: the maintenances of the dashboard, in full): a list or a calendar of
every maintenance touching the user's services, and a private feed for the user's own calendar
program (issue 14)."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.maintenances.state import CalendarFeedState, MaintenancesState
from portal.pages.maintenances.views import maintenances_screen


@page(routes.MAINTENANCES, on_load=[MaintenancesState.load, CalendarFeedState.load])
def maintenances() -> rx.Component:
    return maintenances_screen()
