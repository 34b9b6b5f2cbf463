"""Companies: searched by name, or fetched by uuid (with their sales contacts)."""

import builtins
from collections.abc import Iterable, Sequence
from typing import Any

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.companies import Company
from portal.client.models.sso import SsoSettings
from portal.client.resources.base import Resource

# The largest page the provider serves by default (ITEMS_PER_PAGE_MAX): more ids take more calls.
IDS_PER_CALL = 100


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

    async def set_second_factor_policy(self, company_id: str, required: bool) -> Company:
        """An administrator requires (or no longer requires) a second factor of the company's
        users (issue 52)."""
        path = f"/api/companies/{company_id}/second_factor_policy"
        return await self._send(Company, "PUT", path, json={"secondFactorRequired": required})

    async def with_sales(self, uuids: Sequence[str]) -> "builtins.list[Company]":
        """The companies of ``uuids`` that the user may see, each with its sales contacts and
        their managers and assistants (spec 7: ``uuid[]`` with ``includes[]=sales``)."""
        companies: builtins.list[Company] = []
        for start in range(0, len(uuids), IDS_PER_CALL):
            chunk = uuids[start : start + IDS_PER_CALL]
            page = await self.list(uuids=chunk, includes=("sales",), items_per_page=len(chunk))
            companies.extend(page.items)
        return companies

    async def sso(self, uuid: str) -> SsoSettings:
        """A company's single sign-on (administrators only; never the client secret)."""
        return await self._get(SsoSettings, f"/api/companies/{uuid}/sso")

    async def save_sso(self, uuid: str, settings: dict[str, Any]) -> SsoSettings:
        """Sets it; a ``clientSecret`` of None keeps the stored one. 422 lists the violations."""
        path = f"/api/companies/{uuid}/sso"
        return await self._send(SsoSettings, "PUT", path, json=settings)

    async def remove_sso(self, uuid: str) -> None:
        await self._client.request("DELETE", f"/api/companies/{uuid}/sso")
