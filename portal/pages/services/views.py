"""The services list: tiles, toolbar, filters, count, then cards or a table, and the pages."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal import routes
from portal.client.models import ServiceFilters
from portal.client_references import EXPORT_FILENAME
from portal.components.cards_or_table import cards_or_table, view_switch
from portal.components.data_table import (
    Column,
    clear_filters_button,
    data_table,
    list_count,
    loading_overlay,
    pagination,
    status_filter,
)
from portal.components.downloads import download_link
from portal.components.i18n import _
from portal.components.multi_select import multi_select
from portal.components.service_status import STATUS_LABELS, status_chip
from portal.components.services.models import ServiceRow
from portal.components.services.query import SHOW_ADVANCED_SEARCH, status_list_url
from portal.components.tiles import count_tile
from portal.i18n import N_
from portal.pages.services.import_dialog import import_dialog
from portal.pages.services.state import ServicesState
from portal.permissions import MANAGE_SERVICE_REFERENCES

SEARCH_DEBOUNCE_MS = 1000  # spec 9
ADVANCED_SEARCH_ID = "services-advanced-search"
filters: ObjectVar[ServiceFilters] = ServicesState.filters.to(ObjectVar, ServiceFilters)
COLUMNS = (
    Column(N_("Reference"), "reference"),
    Column(N_("Client references")),
    Column(N_("Type")),
    Column(N_("Status"), "status"),
    Column(N_("Endpoint A")),
    Column(N_("Endpoint B")),
    Column(N_("RFS date"), "dateStart"),
)


def tiles() -> rx.Component:
    return rx.grid(
        count_tile(
            _("Operational services"),
            ServicesState.active_count,
            status_list_url(routes.SERVICES.path, "active"),
            icon="circle-check",
            color="green",
            loading=ServicesState.counting,
            test_id="tile-active",
        ),
        count_tile(
            _("Services under construction"),
            ServicesState.construction_count,
            status_list_url(routes.SERVICES.path, "under_construction"),
            icon="construction",
            color="gray",
            loading=ServicesState.counting,
            test_id="tile-under-construction",
        ),
        columns=rx.breakpoints(initial="2", lg="4"),
        spacing=rx.breakpoints(initial="2", sm="4"),
        width="100%",
    )


def _export_button() -> rx.Component:
    return rx.button(
        download_link(
            rx.icon("download", size=16),
            _("Export"),
            href=ServicesState.export_url,
            filename=EXPORT_FILENAME,
        ),
        as_child=True,
        variant="soft",
    )


def _advanced_search_button() -> rx.Component:
    shown = ServicesState.shows_advanced_search
    return rx.button(
        rx.icon("sliders-horizontal", size=16),
        _("Advanced search"),
        type="button",
        variant=rx.cond(shown, "solid", "soft"),
        aria_expanded=rx.cond(shown, "true", "false"),
        aria_controls=ADVANCED_SEARCH_ID,
        on_click=ServicesState.toggle_flag(SHOW_ADVANCED_SEARCH),
    )


def advanced_search() -> rx.Component:
    """The status and type filters (spec 2: showAdvancedSearch), below the search bar."""
    return rx.cond(
        ServicesState.shows_advanced_search,
        rx.flex(
            status_filter(ServicesState, filters.statuses, STATUS_LABELS),
            multi_select(
                _("Type"),
                options=ServicesState.shown_types,
                selected=filters.type_uuids.to(ArrayVar, list[str]),
                on_toggle=lambda uuid: ServicesState.toggle_filter("type_uuids", uuid),
                on_clear=ServicesState.clear_filter("type_uuids"),
                search=ServicesState.type_search,
                on_search=ServicesState.set_type_search,
                test_id="type-filter",
            ),
            id=ADVANCED_SEARCH_ID,
            spacing="3",
            align="center",
            wrap="wrap",
            width="100%",
        ),
    )


def toolbar() -> rx.Component:
    return rx.flex(
        rx.input(
            rx.input.slot(rx.icon("search", size=16)),
            id="services-search",
            type="search",
            value=filters.search,
            on_change=lambda text: ServicesState.set_filter("search", text),
            debounce_timeout=SEARCH_DEBOUNCE_MS,
            placeholder=_("Reference, site, type…"),
            aria_label=_("Search services"),
            auto_complete="off",
            width=rx.breakpoints(initial="100%", md="340px"),
        ),
        _advanced_search_button(),
        clear_filters_button(ServicesState),
        rx.spacer(),
        view_switch(ServicesState),
        rx.cond(ServicesState.allows(MANAGE_SERVICE_REFERENCES), import_dialog()),
        _export_button(),
        spacing="3",
        align="center",
        wrap="wrap",
        width="100%",
    )


def _count() -> rx.Component:
    return list_count(
        ServicesState,
        _("1 service found"),
        _("{count} services found", count=ServicesState.total),
        test_id="services-count",
    )


def _line(icon: str, value: rx.Var[str], label: rx.Var) -> rx.Component:
    return rx.cond(
        value != "",
        rx.hstack(
            rx.icon(icon, size=14, color=rx.color("gray", 10), flex_shrink="0", aria_label=label),
            rx.text(value, size="2"),
            spacing="2",
            align="center",
        ),
    )


def _card(service: ObjectVar[ServiceRow]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.link(service.reference, href=service.path, weight="bold", size="3"),
                status_chip(service.status),
                justify="between",
                align="center",
                width="100%",
                wrap="wrap",
                spacing="2",
            ),
            rx.text(service.type_label, size="2", weight="medium", color=rx.color("gray", 12)),
            _line("tag", service.client_references, _("Client references")),
            _line("map-pin", service.endpoint_a, _("Endpoint A")),
            _line("map-pinned", service.endpoint_b, _("Endpoint B")),
            rx.cond(
                service.date_start != "",
                rx.text(
                    _("RFS date: {date}", date=service.date_start),
                    size="1",
                    color=rx.color("gray", 11),
                ),
            ),
            spacing="2",
            width="100%",
        ),
        height="100%",
        data_testid="service-card",
    )


def _busy(content: rx.Component) -> rx.Component:
    return rx.box(
        content, loading_overlay(ServicesState.loading), position="relative", width="100%"
    )


def cards() -> rx.Component:
    empty = rx.center(
        rx.text(_("No result"), color=rx.color("gray", 11)), padding_y="32px", width="100%"
    )
    return rx.vstack(
        _busy(
            rx.box(
                rx.grid(
                    rx.foreach(ServicesState.rows, _card),
                    columns=rx.breakpoints(initial="1", sm="2", md="3", lg="4"),
                    spacing="4",
                    width="100%",
                ),
                rx.cond(~ServicesState.loading & (ServicesState.rows.length() == 0), empty),
                min_height="120px",
                aria_busy=ServicesState.loading,
            )
        ),
        pagination(ServicesState, justify="center", width="100%"),
        spacing="4",
        width="100%",
    )


def _cells(service: ObjectVar[ServiceRow]) -> list[rx.Component | rx.Var]:
    return [
        rx.link(service.reference, href=service.path, weight="medium", white_space="nowrap"),
        rx.text(service.client_references, min_width="120px"),
        rx.text(service.type_label, min_width="140px"),
        status_chip(service.status),
        rx.text(service.endpoint_a, min_width="140px"),
        rx.text(service.endpoint_b, min_width="140px"),
        rx.text(service.date_start, white_space="nowrap"),
    ]


def table() -> rx.Component:
    return rx.card(
        data_table(
            ServicesState,
            columns=COLUMNS,
            cells=_cells,
            label=_("Services"),
        ),
        width="100%",
        overflow_x="auto",
    )


def services_list() -> rx.Component:
    return rx.vstack(
        tiles(),
        toolbar(),
        advanced_search(),
        _count(),
        cards_or_table(ServicesState, cards(), table()),
        spacing="4",
        width="100%",
    )
