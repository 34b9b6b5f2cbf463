"""The dashboard's sections: the tiles, the invoices' tiles, the last tickets, the
maintenances. Each shows its own skeleton while loading and its own failure."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.components.failure import failure_callout
from portal.components.i18n import _
from portal.components.invoices.tiles import InvoiceTiles, invoice_tiles
from portal.components.maintenances.browser import maintenances_browser
from portal.components.tickets.table import tickets_table
from portal.components.tiles import count_tile
from portal.pages.home.models import DashboardTiles
from portal.pages.home.state import DashboardMaintenancesState, DashboardState, LastTicketsState
from portal.permissions import ACCESS_INVOICES, VIEW_TICKETS_MENU
from portal.state.session import SessionState

tiles: ObjectVar[DashboardTiles] = DashboardState.tiles.to(ObjectVar, DashboardTiles)


failed = DashboardState.failure != ""


def _failure() -> rx.Component:
    """In place of the figures, which come in one answer and fail together: the one
    announcement of it (docs/decisions/dashboard.md)."""
    return failure_callout(
        _("The figures could not be loaded."),
        DashboardState.failure,
        DashboardState.load,
        test_id="dashboard-failure",
    )


def counters() -> rx.Component:
    """Services and tickets, at 12/6/4/3 columns (spec 2): one, two, three, four a row. While
    they load, the ticket tiles wait for a user who may read tickets."""
    loading = DashboardState.counting
    ticket_tiles = [
        count_tile(
            _("Open tickets"),
            tiles.open_tickets,
            tiles.open_tickets_url,
            icon="inbox",
            color="purple",
            loading=loading,
            test_id="tile-open-tickets",
        ),
        count_tile(
            _("Active tickets"),
            tiles.active_tickets,
            tiles.active_tickets_url,
            icon="circle-dot",
            color="green",
            loading=loading,
            test_id="tile-active-tickets",
        ),
        count_tile(
            _("Closed tickets"),
            tiles.closed_tickets,
            tiles.closed_tickets_url,
            icon="circle-check",
            color="gray",
            loading=loading,
            test_id="tile-closed-tickets",
        ),
    ]
    return rx.grid(
        count_tile(
            _("Operational services"),
            tiles.active_services,
            tiles.active_services_url,
            icon="network",
            color="green",
            loading=loading,
            test_id="tile-active-services",
        ),
        count_tile(
            _("Services under construction"),
            tiles.services_under_construction,
            tiles.construction_url,
            icon="construction",
            color="amber",
            loading=loading,
            test_id="tile-under-construction",
        ),
        *(
            rx.cond((loading & SessionState.allows(VIEW_TICKETS_MENU)) | tiles.shows_tickets, tile)
            for tile in ticket_tiles
        ),
        columns=rx.breakpoints(initial="1", sm="2", md="3", lg="4"),
        spacing=rx.breakpoints(initial="2", sm="4"),
        width="100%",
    )


def _section(title: rx.Var, link: rx.Component | None, *children: rx.Component, test_id: str):
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.heading(title, as_="h2", size="4"),
                link or rx.fragment(),
                justify="between",
                align="center",
                width="100%",
            ),
            *children,
            spacing="3",
            width="100%",
        ),
        width="100%",
        data_testid=test_id,
    )


def _all(label: rx.Var, href: str) -> rx.Component:
    return rx.link(
        rx.hstack(label, rx.icon("arrow-right", size=14), spacing="1", align="center"),
        href=href,
        size="2",
    )


def invoices() -> rx.Component:
    """With its skeletons while the figures load, for a user who may read invoices: the
    section does not push the page down when they arrive."""
    loading = DashboardState.counting & SessionState.allows(ACCESS_INVOICES)
    return rx.cond(
        ~failed & (loading | tiles.shows_invoices),
        _section(
            _("Invoices"),
            _all(_("All invoices"), routes.INVOICES.path),
            invoice_tiles(
                DashboardState.invoice_tiles.to(ObjectVar, InvoiceTiles), DashboardState.counting
            ),
            test_id="dashboard-invoices",
        ),
    )


def last_tickets() -> rx.Component:
    """Loaded on its own, whatever became of the figures."""
    return rx.cond(
        SessionState.allows(VIEW_TICKETS_MENU),
        _section(
            _("Last tickets"),
            _all(_("All tickets"), routes.TICKETS.path),
            rx.box(tickets_table(LastTicketsState), width="100%", overflow_x="auto"),
            test_id="dashboard-tickets",
        ),
    )


def maintenances() -> rx.Component:
    """A list or a calendar, the choice shared with the maintenances view (spec 2)."""
    return _section(
        _("Maintenances"),
        _all(_("All maintenances"), routes.MAINTENANCES.path),
        maintenances_browser(DashboardMaintenancesState),
        test_id="dashboard-maintenances",
    )


def dashboard() -> rx.Component:
    return rx.vstack(
        rx.cond(failed, _failure(), counters()),
        invoices(),
        last_tickets(),
        maintenances(),
        spacing="4",
        width="100%",
    )
