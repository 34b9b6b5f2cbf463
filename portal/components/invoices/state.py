"""The invoices of a list (spec 2). The invoicing screen binds it to its URL; a service's page
shows the invoices of that service."""

from typing import Any, ClassVar

import reflex as rx

from portal.client import Page, ProviderClient
from portal.client.models import InvoiceFilters
from portal.components.invoices.models import InvoiceRow
from portal.components.invoices.query import INVOICES_URL
from portal.components.paging import Paging
from portal.list_query import ListUrl
from portal.state.lists import ListState


class InvoiceList(ListState, mixin=True):
    """A list of invoices; each page using one subclasses it."""

    url: ClassVar[ListUrl[InvoiceFilters]] = INVOICES_URL
    filters: rx.Field[InvoiceFilters] = rx.field(default_factory=InvoiceFilters)
    rows: rx.Field[list[InvoiceRow]] = rx.field(default_factory=list)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        page = await client.invoices.list(self.filters, **paging.arguments())
        language = self.current_language
        self.rows = [InvoiceRow.of(invoice, language) for invoice in page.items]
        return page
