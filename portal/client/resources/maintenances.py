"""Maintenance windows: the list (filtered on a service reference or a period), one in full,
and the user's private calendar feed."""

from collections.abc import Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.maintenances import (
    CalendarFeed,
    Maintenance,
    MaintenanceFilters,
    MaintenancePeriod,
)
from portal.client.resources.base import Resource


class MaintenancesResource(Resource):
    async def list(
        self,
        filters: MaintenanceFilters | MaintenancePeriod | None = None,
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

    async def calendar_feed(self) -> CalendarFeed:
        return await self._get(CalendarFeed, "/api/calendar_feed")

    async def new_calendar_feed(self) -> CalendarFeed:
        """A new feed URL (token and path, shown once); the previous one stops working."""
        return await self._send(CalendarFeed, "POST", "/api/calendar_feed")

    async def revoke_calendar_feed(self) -> None:
        await self._client.request("DELETE", "/api/calendar_feed")
