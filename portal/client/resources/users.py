"""Users: read, list, and accept the terms of use."""

from collections.abc import Iterable, Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.users import User
from portal.client.resources.base import Resource


class UsersResource(Resource):
    async def get(self, uuid: str, includes: Iterable[str] = ("company",)) -> User:
        return await self._get(User, f"/api/users/{uuid}", includes=includes)

    async def list(
        self,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        name: str | None = None,
        email: str | None = None,
        includes: Iterable[str] = (),
    ) -> Page[User]:
        return await self._list(
            User,
            "/api/users",
            page=page,
            items_per_page=items_per_page,
            order=order,
            includes=includes,
            filters={"name": name, "email": email},
        )

    async def accept_terms(self, uuid: str) -> User:
        return await self._send(User, "POST", f"/api/users/{uuid}/accept_terms")
