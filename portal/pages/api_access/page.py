"""API access (issue 51): one's personal API tokens, made, copied once and revoked here."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.api_access.state import ApiAccessState
from portal.pages.api_access.views import api_access_screen


@page(routes.API_ACCESS, on_load=[ApiAccessState.load])
def api_access() -> rx.Component:
    return api_access_screen()
