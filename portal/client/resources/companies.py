"""Companies: searched by name, or fetched by uuid (with their sales contacts)."""

from collections.abc import Iterable, Sequence

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.companies import Company
from portal.client.resources.base import Resource


class CompaniesResource(Resource):
    async def list(
        self,
        name: str | None = None,
        uuids: Sequence[str] = (),
        includes: Iterable[str] = (),
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
    ) -> Page[Company]:
        return await self._list(
            Company,
            "/api/companies",
            page=page,
            items_per_page=items_per_page,
            includes=includes,
            filters={"name": name, "uuid": tuple(uuids)},
        )
