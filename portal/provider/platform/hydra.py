"""The JSON-LD / Hydra conventions of the provider API (DESIGN section 3), each in one place:
IRIs, resource models, dates, the paging parameters, ``includes[]`` and collection responses.
How a list reads its page, sorted and counted, is ``portal.provider.platform.lists``."""

import datetime as dt
import math
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar
from urllib.parse import urlencode

from fastapi import Depends, Query, Request
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_serializer,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from portal.i18n import N_
from portal.provider.platform.errors import ApiError
from portal.settings import get_settings

T = TypeVar("T")
DEFAULT_ITEMS_PER_PAGE = 10
# Far beyond any real collection, and small enough for every database's integer offsets.
MAX_PAGE = 1_000_000


def iri(collection: str, item_id: uuid.UUID | str) -> str:
    """``iri("users", id)`` → ``/api/users/{id}``: relative to the provider's base URL."""
    return f"/api/{collection}/{item_id}"


class ApiModel(BaseModel):
    """A JSON body of the API: snake_case in Python, camelCase on the wire."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class Resource(ApiModel):
    """An item: its IRI, its JSON-LD type and its bare uuid."""

    iri: str = Field(alias="@id")
    type: str = Field(alias="@type")
    id: str


# --- text ------------------------------------------------------------------------------------


def _not_blank(value: str) -> str:
    """Text of nothing but spaces, tabs and line breaks is as blank as none, and answers the
    same violation. The text is kept as written: a Markdown line's indent means something."""
    if not value.strip():
        raise PydanticCustomError("blank", "Value should not be blank")
    return value


NOT_BLANK = AfterValidator(_not_blank)


# --- dates -----------------------------------------------------------------------------------

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _iso_8601(value: Any) -> Any:
    """Dates and times are ISO 8601 text (``2026-10-31``, ``2026-10-31T09:00:00Z``). pydantic
    also reads a number, or the text of one, as seconds since 1970: ``dateDue[before]=20260101``
    meant 1970-08-23 and ``at[before]=0`` 1970-01-01, silently. A number is refused instead."""
    text = value.strip() if isinstance(value, str) else None
    if (isinstance(value, int | float) and not isinstance(value, bool)) or (
        text is not None and _NUMBER.fullmatch(text)
    ):
        raise PydanticCustomError("iso_8601", "Input should be an ISO 8601 date or time")
    return value


ISO_8601 = BeforeValidator(_iso_8601)
IsoDate = Annotated[dt.date, ISO_8601]
IsoDateTime = Annotated[dt.datetime, ISO_8601]


# --- paging -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pagination:
    page: int
    # 0 asks for the number of items alone (``hydra:totalItems``), as a screen's tiles do.
    items_per_page: int

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.items_per_page

    @property
    def counts_only(self) -> bool:
        return self.items_per_page == 0


# Every paging dependency, for the OpenAPI document to bound their parameters.
PAGINATIONS: set[Callable[..., Awaitable[Pagination]]] = set()


def paginated(default: int) -> Callable[..., Awaitable[Pagination]]:
    """The paging parameters of a list, ``default`` items per page unless asked otherwise."""

    async def pagination(
        page: Annotated[int, Query(description="Page number, from 1.")] = 1,
        items_per_page: Annotated[
            int,
            Query(
                alias="itemsPerPage",
                description="Items per page (documented maximum); 0 for the number of items alone.",
            ),
        ] = default,
    ) -> Pagination:
        maximum = get_settings().items_per_page_max
        if not 1 <= page <= MAX_PAGE:
            raise ApiError(400, N_("The page number must be between 1 and {max}."), max=MAX_PAGE)
        if not 0 <= items_per_page <= maximum:
            raise ApiError(
                400, N_("The number of items per page must be between 0 and {max}."), max=maximum
            )
        return Pagination(page, items_per_page)

    PAGINATIONS.add(pagination)
    return pagination


pagination = paginated(DEFAULT_ITEMS_PER_PAGE)
PaginationDep = Annotated[Pagination, Depends(pagination)]


# --- includes ---------------------------------------------------------------------------------


UNKNOWN_RELATION = N_("Embedding {relation} is not supported.")


def embeddable(*relations: str) -> Callable[..., Awaitable[frozenset[str]]]:
    """A dependency reading ``includes[]=relation`` against the relations the resource can embed
    instead of their IRIs; 400 for any other, as ``lists.Sorting`` answers an unknown sort field."""
    known = frozenset(relations)

    async def includes(
        bracketed: Annotated[
            tuple[str, ...],
            Query(
                alias="includes[]",
                description="Relations to embed instead of their IRIs.",
                json_schema_extra={"items": {"type": "string", "enum": list(relations)}},
            ),
        ] = (),
        plain: Annotated[tuple[str, ...], Query(alias="includes", include_in_schema=False)] = (),
    ) -> frozenset[str]:
        wanted = frozenset(bracketed) | frozenset(plain)
        unknown = sorted(wanted - known)
        if unknown:
            raise ApiError(400, UNKNOWN_RELATION, relation=unknown[0])
        return wanted

    return includes


# --- collections ------------------------------------------------------------------------------


class CollectionView(ApiModel):
    iri: str = Field(alias="@id")
    type: str = Field(default="hydra:PartialCollectionView", alias="@type")
    first: str = Field(alias="hydra:first")
    last: str = Field(alias="hydra:last")
    previous: str | None = Field(default=None, alias="hydra:previous")
    next: str | None = Field(default=None, alias="hydra:next")

    @model_serializer(mode="wrap")
    def _without_missing_links(self, handler: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        return {name: value for name, value in handler(self).items() if value is not None}


class Collection(ApiModel, Generic[T]):
    context: str = Field(alias="@context")
    iri: str = Field(alias="@id")
    type: str = Field(default="hydra:Collection", alias="@type")
    member: list[T] = Field(alias="hydra:member")
    total_items: int = Field(alias="hydra:totalItems")
    view: CollectionView = Field(alias="hydra:view")


class ItemsCollection(Collection[T], Generic[T]):
    """A collection also spelled ``items``/``totalItems``, as sensors and maintenances are read."""

    items: list[T]
    plain_total_items: int = Field(alias="totalItems")


def collection(
    request: Request,
    resource_type: str,
    members: list[T],
    total: int,
    page: Pagination,
    *,
    with_items: bool = False,
) -> Collection[T]:
    """The response of a collection route; ``with_items`` adds the ``items`` spelling, for
    routes whose ``response_model`` is ``ItemsCollection[...]``."""
    last_page = 1 if page.counts_only else max(1, math.ceil(total / page.items_per_page))
    view = CollectionView(
        iri=_page_link(request, page.page),
        first=_page_link(request, 1),
        last=_page_link(request, last_page),
        previous=_page_link(request, page.page - 1) if page.page > 1 else None,
        next=_page_link(request, page.page + 1) if page.page < last_page else None,
    )
    fields: dict[str, Any] = {
        "context": f"/api/contexts/{resource_type}",
        "iri": api_path(request),
        "member": members,
        "total_items": total,
        "view": view,
    }
    if with_items:
        return ItemsCollection[T](**fields, items=members, plain_total_items=total)
    return Collection[T](**fields)


def api_path(request: Request) -> str:
    """The request's path relative to the provider's base URL (``/api/users``), mounted or not."""
    root_path = request.scope.get("root_path", "")
    return request.url.path.removeprefix(root_path) or "/"


def _page_link(request: Request, page: int) -> str:
    params = [(name, value) for name, value in request.query_params.multi_items() if name != "page"]
    params.append(("page", str(page)))
    return f"{api_path(request)}?{urlencode(params, safe='[]')}"
