"""Users: read, list, create, update, delete, and accept the terms of use."""

from collections.abc import Iterable, Mapping, Sequence

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.dashboard import Dashboard
from portal.client.models.users import (
    GrantedService,
    User,
    UserAccess,
    UserFilters,
    UserPayload,
)
from portal.client.resources.base import Resource

MERGE_PATCH = "application/merge-patch+json"


class UsersResource(Resource):
    async def get(self, uuid: str, includes: Iterable[str] = ("company",)) -> User:
        return await self._get(User, f"/api/users/{uuid}", includes=includes)

    async def list(
        self,
        filters: UserFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        includes: Iterable[str] = (),
    ) -> Page[User]:
        return await self._list(
            User,
            "/api/users",
            page=page,
            items_per_page=items_per_page,
            order=order,
            includes=includes,
            filters=filters,
        )

    async def create(self, payload: UserPayload, includes: Iterable[str] = ("company",)) -> User:
        """Creates a user; the provider sends them the account confirmation e-mail."""
        return await self._send(User, "POST", "/api/users", json=payload.body(), includes=includes)

    async def update(
        self, uuid: str, payload: UserPayload, includes: Iterable[str] = ("company",)
    ) -> User:
        return await self._send(
            User,
            "PATCH",
            f"/api/users/{uuid}",
            json=payload.body(),
            content_type=MERGE_PATCH,
            includes=includes,
        )

    async def delete(self, uuid: str) -> None:
        await self._client.request("DELETE", f"/api/users/{uuid}")

    async def dashboard(self, uuid: str) -> Dashboard:
        """The counters of the user's own dashboard (another user's id is not found)."""
        return await self._get(Dashboard, f"/api/users/{uuid}/dashboard")

    async def accept_terms(self, uuid: str) -> User:
        return await self._send(User, "POST", f"/api/users/{uuid}/accept_terms")

    async def access(self, uuid: str) -> UserAccess:
        """The user's access in each of their companies the reader sees (issue 53)."""
        return await self._get(UserAccess, f"/api/users/{uuid}/access")

    async def granted_services(
        self,
        uuid: str,
        company_uuid: str,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
    ) -> Page[GrantedService]:
        """The services a limited user keeps in a company, by reference."""
        path = f"/api/users/{uuid}/access/{company_uuid}/services"
        return await self._list(GrantedService, path, page=page, items_per_page=items_per_page)

    async def set_access(
        self, uuid: str, company_uuid: str, service_uuids: Sequence[str] | None
    ) -> UserAccess:
        """Every service of the company (None), or only those of ``service_uuids``."""
        body: dict[str, object] = {"limited": service_uuids is not None}
        if service_uuids is not None:
            body["services"] = [f"/api/services/{service}" for service in service_uuids]
        path = f"/api/users/{uuid}/access/{company_uuid}"
        return await self._send(UserAccess, "PUT", path, json=body)
