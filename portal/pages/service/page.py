"""A service (spec 2, Service detail): everything about one service and its documents."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.service.state import ServiceState
from portal.pages.service.views import service_page, service_title


@page(
    routes.SERVICE,
    crumbs=((_(routes.SERVICES.label), routes.SERVICES.path), (service_title(), "")),
    crumbs_shown=ServiceState.status != "missing",
    title=service_title(),
    on_load=[ServiceState.load],
)
def service() -> rx.Component:
    return service_page()
