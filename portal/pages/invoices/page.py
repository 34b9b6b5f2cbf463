"""Invoicing (spec 2, Invoices): what is due and overdue, the last two years, and every invoice
and credit note of the user's companies, filtered from the URL."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.invoices.state import InvoicesState
from portal.pages.invoices.views import invoicing


@page(routes.INVOICES, on_load=[InvoicesState.load])
def invoices() -> rx.Component:
    return invoicing()
