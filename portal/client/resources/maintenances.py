"""Maintenance windows: the list (filtered on a service reference) and one in full."""

from collections.abc import Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.maintenances import Maintenance, MaintenanceFilters
from portal.client.resources.base import Resource


class MaintenancesResource(Resource):
    async def list(
        self,
        filters: MaintenanceFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
    ) -> Page[Maintenance]:
        return await self._list(
            Maintenance,
            "/api/maintenances",
            page=page,
            items_per_page=items_per_page,
            order=order,
            filters=filters,
        )

    async def get(self, uuid: str) -> Maintenance:
        return await self._get(Maintenance, f"/api/maintenances/{uuid}")
