"""A service's page: header, milestones, details, documents, client references, then its
maintenances and invoices; or the missing and failed states."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal import routes
from portal.components.i18n import _
from portal.components.invoices.table import invoices_table
from portal.components.item_page import item_page
from portal.components.maintenances.dialog import maintenance_dialog
from portal.components.maintenances.table import maintenances_table
from portal.components.service_status import status_chip
from portal.pages.service.documents import documents_card
from portal.pages.service.models import AttributeGroup, AttributeValue, Place, ServiceDetail, Step
from portal.pages.service.state import (
    ServiceInvoicesState,
    ServiceMaintenancesState,
    ServiceState,
)
from portal.permissions import ACCESS_INVOICES, MANAGE_SERVICE_REFERENCES, WRITE_TICKETS
from portal.state.session import SessionState

_NONE = "—"
service: ObjectVar[ServiceDetail] = ServiceState.service.to(ObjectVar, ServiceDetail)


def service_title() -> rx.Var:
    return rx.cond(service.reference != "", service.reference, _("Service"))


def _client_references() -> rx.Component:
    references = service.client_references.to(ArrayVar, list[str])
    others = references.length() - 1
    return rx.cond(
        references.length() > 0,
        rx.hstack(
            rx.text(references[0], size="3", color=rx.color("gray", 11)),
            rx.cond(
                others > 0,
                rx.tooltip(
                    rx.badge(
                        others.to_string() + "+",
                        variant="soft",
                        radius="full",
                        tab_index=0,
                        data_testid="more-client-references",
                    ),
                    content=references[1:].join(", "),
                ),
            ),
            spacing="2",
            align="center",
        ),
    )


def _report_problem() -> rx.Component:
    """Issue 49: a ticket about this service, the service filled in."""
    return rx.cond(
        SessionState.allows(WRITE_TICKETS) & ~SessionState.user_writes_blocked,
        rx.link(
            rx.button(
                rx.icon("message-square-warning", size=16), _("Report a problem"), variant="soft"
            ),
            href=routes.NEW_TICKET.path + "?service=" + service.id,
            title=_("Report a problem with this service"),
            aria_label=_("Report a problem with this service"),
            data_testid="report-problem",
        ),
    )


def _header() -> rx.Component:
    return rx.card(
        rx.flex(
            rx.vstack(
                rx.heading(service.reference, as_="h2", size="5"),
                _client_references(),
                spacing="1",
            ),
            rx.spacer(),
            status_chip(service.status),
            _report_problem(),
            align="center",
            spacing="3",
            wrap="wrap",
        ),
        width="100%",
    )


def _step(step: ObjectVar[Step]) -> rx.Component:
    # A row per milestone on phones, a column per milestone beside each other above.
    return rx.flex(
        rx.center(
            rx.cond(step.completed, rx.icon("check", size=16, color="white"), rx.fragment()),
            width="28px",
            height="28px",
            flex_shrink="0",
            border_radius="50%",
            background_color=rx.cond(step.completed, rx.color("green", 9), rx.color("gray", 4)),
            border=f"2px solid {rx.color('gray', 7)}",
        ),
        rx.flex(
            rx.text(step.label, size="2", weight=rx.cond(step.completed, "bold", "regular")),
            rx.text(step.date, size="1", color=rx.color("gray", 11)),
            direction="column",
            align=rx.breakpoints(initial="start", sm="center"),
            text_align=rx.breakpoints(initial="left", sm="center"),
        ),
        rx.el.span(
            rx.cond(step.completed, _("Completed"), _("Not completed")),
            style={"position": "absolute", "width": "1px", "height": "1px", "overflow": "hidden"},
        ),
        direction=rx.breakpoints(initial="row", sm="column"),
        align="center",
        spacing="2",
        flex="1",
        position="relative",
        role="listitem",
        data_completed=step.completed,
    )


def _milestones() -> rx.Component:
    return rx.cond(
        service.status == "under_construction",
        rx.card(
            rx.heading(_("Milestones"), as_="h2", size="4", margin_bottom="12px"),
            rx.flex(
                rx.foreach(service.milestones, _step),
                role="list",
                aria_label=_("Milestones"),
                direction=rx.breakpoints(initial="column", sm="row"),
                spacing="3",
            ),
            width="100%",
            data_testid="milestones",
        ),
    )


def _item(label: rx.Var, value: rx.Component | rx.Var) -> rx.Component:
    return rx.data_list.item(
        rx.data_list.label(label, min_width="160px"), rx.data_list.value(value)
    )


def _or_none(value: rx.Var[str]) -> rx.Var:
    return rx.cond(value != "", value, _NONE)


def _place(place: ObjectVar[Place]) -> rx.Component:
    return rx.cond(
        place.name != "",
        rx.vstack(
            rx.text(place.name, weight="medium"),
            rx.text(place.address, size="2", color=rx.color("gray", 11)),
            spacing="0",
        ),
        _NONE,
    )


def _attribute(attribute: ObjectVar[AttributeValue]) -> rx.Component:
    return _item(attribute.label, attribute.value)


def _group(group: ObjectVar[AttributeGroup]) -> rx.Component:
    return rx.vstack(
        rx.cond(group.label != "", rx.heading(group.label, as_="h3", size="3")),
        rx.data_list.root(
            rx.foreach(group["values"].to(ArrayVar, list[AttributeValue]), _attribute),
            orientation=rx.breakpoints(initial="vertical", sm="horizontal"),
        ),
        spacing="2",
        width="100%",
    )


def _details() -> rx.Component:
    return rx.card(
        rx.heading(_("Details"), as_="h2", size="4", margin_bottom="12px"),
        rx.data_list.root(
            _item(_("Type"), _or_none(service.type_label)),
            _item(_("RFS date"), _or_none(service.date_start)),
            _item(_("Termination date"), _or_none(service.date_termination)),
            _item(_("Company"), _or_none(service.company)),
            _item(_("Endpoint A"), _place(service.endpoint_a.to(ObjectVar, Place))),
            _item(_("Endpoint B"), _place(service.endpoint_b.to(ObjectVar, Place))),
            orientation=rx.breakpoints(initial="vertical", sm="horizontal"),
        ),
        rx.cond(
            service.attribute_groups.length() > 0,
            rx.vstack(
                rx.divider(margin_y="12px"),
                rx.foreach(service.attribute_groups, _group),
                spacing="3",
                width="100%",
            ),
        ),
        width="100%",
    )


def _references_form() -> rx.Component:
    return rx.cond(
        ServiceState.allows(MANAGE_SERVICE_REFERENCES),
        rx.card(
            rx.el.form(
                rx.vstack(
                    rx.el.label(
                        rx.heading(_("Client references"), as_="h2", size="4"),
                        html_for="client-references",
                    ),
                    rx.text(
                        _("Separate several references with commas."),
                        size="2",
                        color=rx.color("gray", 11),
                    ),
                    rx.flex(
                        rx.input(
                            id="client-references",
                            value=ServiceState.references_text,
                            on_change=ServiceState.set_references_text,
                            auto_complete="off",
                            flex="1",
                            min_width="200px",
                        ),
                        rx.button(_("Save"), type="submit", loading=ServiceState.saving),
                        spacing="3",
                        width="100%",
                        wrap="wrap",
                    ),
                    spacing="2",
                    width="100%",
                ),
                on_submit=ServiceState.save_references,
                prevent_default=True,
            ),
            width="100%",
        ),
    )


def _section(title: rx.Var, content: rx.Component, test_id: str) -> rx.Component:
    return rx.card(
        rx.heading(title, as_="h2", size="4", margin_bottom="12px"),
        content,
        width="100%",
        data_testid=test_id,
    )


def _ready() -> rx.Component:
    return rx.vstack(
        _header(),
        _milestones(),
        rx.grid(
            _details(),
            rx.vstack(documents_card(), _references_form(), spacing="4", width="100%"),
            columns=rx.breakpoints(initial="1", lg="2"),
            spacing="4",
            width="100%",
        ),
        _section(
            _("Maintenances"),
            maintenances_table(ServiceMaintenancesState),
            "service-maintenances",
        ),
        rx.cond(
            ServiceState.allows(ACCESS_INVOICES),
            _section(_("Invoices"), invoices_table(ServiceInvoicesState), "service-invoices"),
        ),
        maintenance_dialog(ServiceMaintenancesState),
        spacing="4",
        width="100%",
    )


def service_page() -> rx.Component:
    return item_page(
        ServiceState.status,
        _ready(),
        missing_text=_("This service does not exist or you cannot see it."),
        missing_icon="circle-off",
        failed_text=_("The service could not be loaded."),
        retry=ServiceState.load,
        back_label=_("Back to services"),
        back_path=routes.SERVICES.path,
    )
