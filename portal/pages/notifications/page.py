"""The Notifications page, reached from the user menu and from the foot of every notice."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.notifications.state import NotificationsState
from portal.pages.notifications.views import notifications_screen


@page(routes.NOTIFICATIONS, on_load=[NotificationsState.load])
def notifications() -> rx.Component:
    return notifications_screen()
