"""Home: the welcome title and the dashboard (spec 2: Dashboard)."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.home.state import DashboardMaintenancesState, DashboardState, LastTicketsState
from portal.pages.home.views import dashboard
from portal.settings import get_settings
from portal.state.session import SessionState


@page(
    routes.HOME,
    on_load=[
        DashboardState.load,
        LastTicketsState.show_last,
        DashboardMaintenancesState.show_last,
    ],
    crumbs=(),
    title=_("Welcome to your {company} customer portal", company=get_settings().company_name),
)
def home() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "Logged in as {name}, {company}.",
                name=SessionState.full_name,
                company=SessionState.company_name,
            ),
            color=rx.color("gray", 11),
        ),
        rx.text(
            _("Logged in since {moment}.", moment=SessionState.signed_in_since),
            size="2",
            color=rx.color("gray", 11),
            data_testid="signed-in-since",
        ),
        dashboard(),
        spacing="4",
        width="100%",
    )
