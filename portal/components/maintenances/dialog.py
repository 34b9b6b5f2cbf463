"""The maintenance dialog (spec 2): what the maintenance is, when, whom to ask, and the
services it impacts; 60 % wide on large screens, 80 % otherwise, full screen on phones."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.i18n import _
from portal.components.maintenances.models import ImpactedRow, MaintenanceDetail, MaintenanceRow
from portal.components.maintenances.state import MaintenanceList

# Spec 2, Maintenance calendar legend: noImpact green, degraded warning, outage error,
# cancelled grey.
CLASSIFICATION_COLORS = {"noImpact": "green", "degraded": "amber", "outage": "red"}


def hours_label(hours: rx.Var[int]) -> rx.Var:
    return rx.cond(hours == 1, _("1 hour"), _("{count} hours", count=hours))


def classification_chip(row: ObjectVar[MaintenanceRow]) -> rx.Component:
    return rx.badge(
        row.classification_label,
        color_scheme=rx.cond(
            row.status == "cancelled",
            "gray",
            rx.match(row.classification, *CLASSIFICATION_COLORS.items(), "gray"),
        ),
        variant="soft",
        radius="full",
        white_space="nowrap",
    )


def _item(label: rx.Var, value: rx.Component | rx.Var) -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label, min_width="160px"), rx.data_list.value(value)
    )


def _service_row(service: ObjectVar[ImpactedRow]) -> rx.Component:
    return rx.table.row(
        rx.table.row_header_cell(rx.link(service.reference, href=service.path)),
        rx.table.cell(service.type_label),
        rx.table.cell(service.endpoint_a),
        rx.table.cell(service.endpoint_b),
    )


def _services(detail: ObjectVar[MaintenanceDetail]) -> rx.Component:
    return rx.box(
        rx.table.root(
            rx.table.header(
                rx.table.row(
                    rx.table.column_header_cell(_("Reference")),
                    rx.table.column_header_cell(_("Product type")),
                    rx.table.column_header_cell(_("Endpoint A")),
                    rx.table.column_header_cell(_("Endpoint B")),
                )
            ),
            rx.table.body(rx.foreach(detail.services, _service_row)),
            variant="surface",
            size="1",
        ),
        width="100%",
        overflow_x="auto",
    )


def _contacts(detail: ObjectVar[MaintenanceDetail]) -> rx.Component:
    return rx.flex(
        rx.foreach(
            detail.contacts,
            lambda email: rx.link(
                rx.badge(rx.icon("mail", size=12), email, variant="soft", radius="full"),
                href="mailto:" + email,
            ),
        ),
        wrap="wrap",
        spacing="1",
    )


def maintenance_dialog(state: type[MaintenanceList]) -> rx.Component:
    """The dialog of ``state``'s maintenance, once per page."""
    detail = state.detail.to(ObjectVar, MaintenanceDetail)
    return rx.dialog.root(
        rx.dialog.content(
            rx.flex(
                rx.dialog.title(detail.name, margin="0"),
                rx.spacer(),
                rx.dialog.close(
                    rx.icon_button(rx.icon("x"), variant="ghost", aria_label=_("Close"))
                ),
                align="center",
                spacing="3",
            ),
            rx.text(
                rx.cond(
                    state.detail_loading,
                    rx.spinner(size="1", display="inline-block"),
                    rx.cond(
                        detail.services.length() == 1,
                        _("1 impacted service"),
                        _("{count} impacted services", count=detail.services.length()),
                    ),
                ),
                size="2",
                color=rx.color("gray", 11),
                data_testid="impacted-count",
            ),
            rx.data_list.root(
                _item(_("Duration"), hours_label(detail.hours)),
                _item(_("Reference"), detail.reference),
                _item(_("Type"), detail.type_label),
                _item(_("Classification"), classification_chip(detail)),
                _item(
                    _("Status"),
                    rx.text(
                        detail.status_label,
                        text_decoration=rx.cond(
                            detail.status == "cancelled", "line-through", "none"
                        ),
                    ),
                ),
                _item(_("Start"), detail.start),
                _item(_("End"), detail.end),
                _item(_("Notification date"), detail.notification),
                _item(_("Contacts"), _contacts(detail)),
                orientation=rx.breakpoints(initial="vertical", sm="horizontal"),
                margin_y="16px",
            ),
            rx.cond(state.detail_loading, rx.fragment(), _services(detail)),
            width=rx.breakpoints(initial="100vw", sm="80vw", lg="60vw"),
            max_width=rx.breakpoints(initial="100vw", sm="80vw", lg="60vw"),
            height=rx.breakpoints(initial="100dvh", sm="auto"),
            max_height=rx.breakpoints(initial="100dvh", sm="85vh"),
            border_radius=rx.breakpoints(initial="0", sm="var(--radius-5)"),
            # Full screen on a phone: out of the padding Radix keeps around a dialog.
            position=rx.breakpoints(initial="fixed", sm="relative"),
            inset=rx.breakpoints(initial="0", sm="auto"),
            overflow_y="auto",
        ),
        open=state.dialog_open,
        on_open_change=state.set_dialog_open,
    )
