"""What a resource namespace is written with: typed GET, list and send helpers.

A new resource is a subclass of ``Resource`` with one method per call, each a line or two over
these helpers, plus one attribute on ``ProviderClient``.
"""

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from portal.client.errors import invalid_response
from portal.client.filters import Filters
from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, FilterValue, Page, query_params

if TYPE_CHECKING:
    from portal.client.base import ProviderClient

M = TypeVar("M", bound=BaseModel)


class Resource:
    def __init__(self, client: "ProviderClient") -> None:
        self._client = client

    async def _get(self, model: type[M], path: str, *, includes: Iterable[str] = ()) -> M:
        data = await self._client.get_json(path, params=query_params(includes=includes))
        return self._parse(model, data)

    async def _list(
        self,
        model: type[M],
        path: str,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
        includes: Iterable[str] = (),
        filters: Filters | Mapping[str, FilterValue] | None = None,
    ) -> Page[M]:
        params = query_params(
            page=page,
            items_per_page=items_per_page,
            order=order,
            includes=includes,
            filters=filters.to_provider() if isinstance(filters, Filters) else filters,
        )
        collection = self._parse(Page[dict[str, Any]], await self._client.get_json(path, params))
        items = [self._parse(model, item) for item in collection.items]
        return Page(items=items, total=collection.total, page=page, items_per_page=items_per_page)

    async def _send(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        json: Any = None,
        content_type: str = "",
        includes: Iterable[str] = (),
    ) -> M:
        headers = {"Content-Type": content_type} if content_type else None
        params = query_params(includes=includes)
        response = await self._client.request(
            method, path, params=params, json=json, headers=headers
        )
        return self._parse(model, self._client.decode(response))

    def _parse(self, model: type[M], data: Any) -> M:
        try:
            return model.model_validate(data)
        except ValidationError as error:
            raise invalid_response(self._client.language) from error
