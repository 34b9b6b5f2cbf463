"""Monitoring sensors: the list (by tags), a sensor's SVG chart over a span, its points, its
legend."""

from collections.abc import Sequence
from typing import Literal

from portal.client.errors import invalid_response
from portal.client.hydra import Page
from portal.client.models.sensors import (
    DEFAULT_CHART_SPAN,
    ChartData,
    ChartSpan,
    LegendEntry,
    Sensor,
)
from portal.client.resources.base import Resource
from portal.markup import sanitize_svg

# The provider's largest response without paging (portal/provider/monitoring/routes/sensors.py).
SENSORS_PER_CALL = 2000


class SensorsResource(Resource):
    async def list(
        self,
        tags: Sequence[str] = (),
        *,
        page: int = 1,
        view: Literal["full", "card"] = "full",
    ) -> Page[Sensor]:
        """Up to ``SENSORS_PER_CALL`` sensors, in the screen's order (group, device, priority
        descending, position); ``total`` tells how many match. ``view="card"`` reads only what
        the monitoring screen's cards show (no reference, client references or port label)."""
        filters: dict[str, str | list[str]] = {"tags": list(tags)} if tags else {}
        if view != "full":
            filters["view"] = view
        return await self._list(
            Sensor,
            "/api/sensors",
            page=page,
            items_per_page=SENSORS_PER_CALL,
            filters=filters or None,
        )

    async def legend(self, uuid: str) -> "Sequence[LegendEntry]":
        collection = await self._list(
            LegendEntry, f"/api/sensors/{uuid}/chart_legend", items_per_page=SENSORS_PER_CALL
        )
        return collection.items

    async def chart_svg(
        self,
        uuid: str,
        span: ChartSpan = DEFAULT_CHART_SPAN,
        *,
        time_zone: str = "",
        narrow: bool = False,
    ) -> str:
        """The chart as SVG text, labelled in the client's language and ``time_zone``, safe to
        inline in a page (``portal.markup``); ``narrow``: shaped for a phone."""
        params = [("span", span)] + ([("timezone", time_zone)] if time_zone else [])
        params += [("layout", "narrow")] if narrow else []
        path = f"/api/sensors/{uuid}/chart/svg"
        response = await self._client.request("GET", path, params=params)
        try:
            return sanitize_svg(response.text)
        except ValueError as error:
            raise invalid_response(self._client.language) from error

    async def chart_data(
        self, uuid: str, span: ChartSpan = DEFAULT_CHART_SPAN, *, narrow: bool = False
    ) -> ChartData:
        """The points the chart of ``span`` draws, per channel, with its last value, lowest,
        highest and 95th percentile; where the plot lies in the ``narrow`` chart, or the wide."""
        params = [("span", span)] + ([("layout", "narrow")] if narrow else [])
        data = await self._client.get_json(f"/api/sensors/{uuid}/chart/data", params)
        return self._parse(ChartData, data)
