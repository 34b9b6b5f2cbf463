"""The invoice table: reference, type, dates, amounts in euros, paid or unpaid, the PDF."""

import reflex as rx
from reflex.vars import ObjectVar

from portal.components.data_table import Column, data_table
from portal.components.downloads import download_link
from portal.components.i18n import _
from portal.components.invoices.models import InvoiceRow
from portal.components.invoices.state import InvoiceList
from portal.i18n import N_

COLUMNS = (
    Column(N_("Reference"), "reference"),
    Column(N_("Type")),
    Column(N_("Invoice date"), "dateInvoice"),
    Column(N_("Due date"), "dateDue"),
    Column(N_("Amount excl. tax"), "amount"),
    Column(N_("Amount incl. tax")),
    Column(N_("Status")),
    Column(N_("PDF")),
)


def _cells(invoice: ObjectVar[InvoiceRow]) -> list[rx.Component | rx.Var]:
    return [
        rx.text(invoice.reference, weight="medium", white_space="nowrap"),
        rx.cond(invoice.type == "credit", _("Credit note"), _("Invoice")),
        rx.text(invoice.date_invoice, white_space="nowrap"),
        rx.text(invoice.date_due, white_space="nowrap"),
        rx.text(invoice.amount, white_space="nowrap", text_align="right"),
        rx.text(invoice.amount_with_tax, white_space="nowrap", text_align="right"),
        rx.badge(
            rx.cond(invoice.is_paid, _("Paid"), _("Unpaid")),
            color_scheme=rx.cond(invoice.is_paid, "green", "orange"),
            variant="soft",
            radius="full",
        ),
        rx.cond(
            invoice.pdf_url != "",
            download_link(
                rx.icon("file-down", size=18),
                href=invoice.pdf_url,
                filename=invoice.pdf_name,
                aria_label=_("Download {name}", name=invoice.reference),
                style={"color": rx.color("purple", 11)},
            ),
        ),
    ]


def invoices_table(state: type[InvoiceList]) -> rx.Component:
    return rx.box(
        data_table(
            state,
            columns=COLUMNS,
            cells=_cells,
            label=_("Invoices"),
        ),
        width="100%",
        overflow_x="auto",
    )
