"""Invoices and credit notes, filtered as the invoicing screen and a service's page need, one
invoice with its lines, and the screen's tiles and chart."""

from collections.abc import Iterable, Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.invoices import Invoice, InvoiceFilters, InvoiceSummary
from portal.client.resources.base import Resource


class InvoicesResource(Resource):
    async def list(
        self,
        filters: InvoiceFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        includes: Iterable[str] = (),
    ) -> Page[Invoice]:
        """``order`` e.g. ``{"dateDue": "asc"}`` (dateInvoice, dateDue, reference, amount); the
        provider's default is the newest invoices first. ``InvoiceFilters(is_paid=False)`` lists
        the invoices not (fully) paid; due dates are inclusive."""
        return await self._list(
            Invoice,
            "/api/invoices",
            page=page,
            items_per_page=items_per_page,
            order=order,
            includes=includes,
            filters=filters,
        )

    async def get(self, uuid: str, includes: Iterable[str] = ()) -> Invoice:
        """One invoice with its lines."""
        return await self._get(Invoice, f"/api/invoices/{uuid}", includes=includes)

    async def summary(self) -> InvoiceSummary:
        """Balance, amount due and overdue, unpaid count, and the last 24 months invoiced and
        paid, over the invoices the session may read."""
        return await self._get(InvoiceSummary, "/api/invoices/summary")
