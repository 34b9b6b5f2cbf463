"""The documents card (spec 2): handovers, LOAs, the order form (with Order.pdf access), the
termination documents (once the service is being or has been terminated) and the delivery
manager (when there is one). Every file comes through the portal's file route."""

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from portal.components.downloads import download_link
from portal.components.i18n import _
from portal.pages.service.models import Download, ServiceDetail
from portal.pages.service.state import ServiceState
from portal.permissions import ACCESS_ORDER_PDF

service: ObjectVar[ServiceDetail] = ServiceState.service.to(ObjectVar, ServiceDetail)


def _download(document: ObjectVar[Download]) -> rx.Component:
    return download_link(
        rx.badge(
            rx.icon("file-down", size=14),
            document.name,
            variant="soft",
            radius="full",
            size="2",
            cursor="pointer",
        ),
        href=document.url,
        filename=document.name,
    )


def _group(label: rx.Var, field: rx.Var, test_id: str) -> rx.Component:
    documents = field.to(ArrayVar, list[Download])
    return rx.vstack(
        rx.text(label, size="2", weight="bold"),
        rx.cond(
            documents.length() > 0,
            rx.flex(rx.foreach(documents, _download), wrap="wrap", spacing="2"),
            rx.text(_("No documents"), size="2", color=rx.color("gray", 11)),
        ),
        spacing="1",
        width="100%",
        data_testid=test_id,
    )


def documents_card() -> rx.Component:
    terminating = (service.status == "under_termination") | (service.status == "terminated")
    order_form = service.order_form.to(ObjectVar, Download)
    return rx.card(
        rx.heading(_("Documents"), as_="h2", size="4", margin_bottom="12px"),
        rx.vstack(
            _group(_("Handovers"), service.handovers, "handovers"),
            _group(_("Letters of authorisation"), service.loas, "loas"),
            rx.cond(
                ServiceState.allows(ACCESS_ORDER_PDF) & (order_form.url != ""),
                rx.vstack(
                    rx.text(_("Order form"), size="2", weight="bold"),
                    rx.box(_download(order_form)),
                    spacing="1",
                    data_testid="order-form",
                ),
            ),
            rx.cond(
                terminating,
                _group(
                    _("Termination documents"),
                    service.termination_documents,
                    "termination-documents",
                ),
            ),
            rx.cond(
                service.delivery_manager != "",
                rx.vstack(
                    rx.text(_("Delivery manager"), size="2", weight="bold"),
                    rx.hstack(
                        rx.text(service.delivery_manager),
                        rx.link(
                            service.delivery_manager_email,
                            href="mailto:" + service.delivery_manager_email,
                            size="2",
                        ),
                        spacing="2",
                        wrap="wrap",
                    ),
                    spacing="1",
                    data_testid="delivery-manager",
                ),
            ),
            spacing="4",
            width="100%",
        ),
        width="100%",
    )
