"""Service types, every one at once: the list is short (about 45) and labelled."""

from portal.client.models.services import ServiceType
from portal.client.resources.base import Resource

# More than the catalogue will ever hold, so one call brings them all.
ALL_TYPES = 200


class ServiceTypesResource(Resource):
    async def list(self) -> list[ServiceType]:
        page = await self._list(ServiceType, "/api/service_types", items_per_page=ALL_TYPES)
        return page.items
