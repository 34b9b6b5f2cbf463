"""Monitoring (spec 2): the live state of every sensor, grouped, with its chart from 2 hours to
a year."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.monitoring.state import MonitoringState
from portal.pages.monitoring.views import monitoring_screen


@page(routes.MONITORING, on_load=[MonitoringState.load])
def monitoring() -> rx.Component:
    return monitoring_screen()
