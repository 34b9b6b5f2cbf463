"""Invoices and credit notes, filtered as the invoicing screen and a service's page need."""

from collections.abc import Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.invoices import Invoice, InvoiceFilters
from portal.client.resources.base import Resource


class InvoicesResource(Resource):
    async def list(
        self,
        filters: InvoiceFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
    ) -> Page[Invoice]:
        return await self._list(
            Invoice,
            "/api/invoices",
            page=page,
            items_per_page=items_per_page,
            order=order,
            filters=filters,
        )
