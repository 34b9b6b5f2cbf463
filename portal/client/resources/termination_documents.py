"""The documents of the termination orders covering a service."""

from portal.client.models.services import TerminationDocument
from portal.client.resources.base import Resource


class TerminationDocumentsResource(Resource):
    async def for_service(self, service_uuid: str) -> list[TerminationDocument]:
        page = await self._list(
            TerminationDocument,
            "/api/termination_documents",
            items_per_page=100,
            filters={"termination.services.uuid": service_uuid},
        )
        return page.items
