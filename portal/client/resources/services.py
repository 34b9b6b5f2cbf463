"""Services: the filtered list, one service, client references (one by one or by CSV) and the
CSV export and template, which are streamed."""

from collections.abc import Iterable, Mapping
from typing import IO

import httpx

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page, QueryParams, query_params
from portal.client.models.services import ImportResult, Service, ServiceFilters
from portal.client.resources.base import Resource

SERVICES = "/api/services"
EXPORT = "/api/services/export"
CLIENT_REFERENCE = "/api/services/client_reference"
IMPORT = "/api/services/client_reference/import"
TEMPLATE = "/api/services/client_reference/download_csv"


class ServicesResource(Resource):
    async def list(
        self,
        filters: ServiceFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        includes: Iterable[str] = (),
    ) -> Page[Service]:
        return await self._list(
            Service,
            SERVICES,
            page=page,
            items_per_page=items_per_page,
            order=order,
            includes=includes,
            filters=filters,
        )

    async def count(self, filters: ServiceFilters) -> int:
        """How many services match: a page of none (``itemsPerPage=0``), its total read."""
        return (await self.list(filters, items_per_page=0)).total

    async def get(
        self, uuid: str, includes: Iterable[str] = ("order", "company", "type")
    ) -> Service:
        return await self._get(Service, f"{SERVICES}/{uuid}", includes=includes)

    async def update_client_references(self, reference: str, client_references: str) -> Service:
        """Replaces a service's client references with a comma-separated list (spec 5)."""
        return await self._send(
            Service,
            "POST",
            CLIENT_REFERENCE,
            json={"reference": reference, "clientReferences": client_references},
        )

    async def import_client_references(
        self, filename: str, content: bytes | IO[bytes], content_type: str = "text/csv"
    ) -> ImportResult:
        """Uploads a semicolon CSV of ``reference;clientReferences``; all rows or none. A file
        object is read and sent a chunk at a time, never whole in memory."""
        response = await self._client.request(
            "POST", IMPORT, files={"file": (filename, content, content_type)}
        )
        return self._parse(ImportResult, self._client.decode(response))

    @staticmethod
    def export_query(filters: ServiceFilters) -> QueryParams:
        """The export's query: the browser downloads it through the portal's file route."""
        return query_params(filters=filters.to_provider())

    async def export(self, filters: ServiceFilters) -> httpx.Response:
        """The CSV of the filtered services, streamed; the caller closes the response."""
        return await self._client.open_stream(EXPORT, params=self.export_query(filters))

    async def template(self) -> httpx.Response:
        """The import template, streamed; the caller closes the response."""
        return await self._client.open_stream(TEMPLATE)
