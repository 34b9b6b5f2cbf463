"""Invoices and credit notes, filtered as the invoicing screen and a service's page need."""

from collections.abc import Mapping
from datetime import date

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.invoices import Invoice
from portal.client.resources.base import Resource


class InvoicesResource(Resource):
    async def list(
        self,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        service_uuid: str | None = None,
        type: str | None = None,
        is_paid: bool | None = None,
        reference: str | None = None,
        due_after: date | None = None,
        due_before: date | None = None,
    ) -> Page[Invoice]:
        return await self._list(
            Invoice,
            "/api/invoices",
            page=page,
            items_per_page=items_per_page,
            order=order,
            filters={
                "lines.services.uuid": service_uuid,
                "type": type,
                "isPaid": is_paid,
                "reference": reference,
                "dateDue[after]": due_after,
                "dateDue[before]": due_before,
            },
        )
