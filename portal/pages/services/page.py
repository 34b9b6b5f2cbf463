"""Services (spec 2): the user's services, filtered from the URL, as cards or a table."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.services.state import ServicesState
from portal.pages.services.views import services_list


@page(routes.SERVICES, on_load=[ServicesState.load])
def services() -> rx.Component:
    return services_list()
