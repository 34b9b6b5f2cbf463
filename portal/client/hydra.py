"""The provider's JSON-LD / Hydra conventions: query strings, collections and IRIs (DESIGN §3)."""

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any, Generic, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel, model_validator

DEFAULT_ITEMS_PER_PAGE = 10

T = TypeVar("T")
Scalar = str | int | float | bool | date
FilterValue = Scalar | Sequence[Scalar] | None
QueryParams = list[tuple[str, str]]


def query_params(
    *,
    page: int | None = None,
    items_per_page: int | None = None,
    order: Mapping[str, str] | None = None,
    includes: Iterable[str] = (),
    filters: Mapping[str, FilterValue] | None = None,
) -> QueryParams:
    """The query of a provider call, encoded as the provider reads it.

    ``order={"lastname": "asc"}`` → ``order[lastname]=asc``; ``includes=("company",)`` →
    ``includes[]=company``; a list filter ``{"status": ["a", "b"]}`` → ``status[]=a&status[]=b``;
    a scalar filter keeps its name as given (``dateDue[after]``). ``None`` and empty filters are
    left out, so callers pass every filter of a screen and only the filled ones are sent.
    """
    params: QueryParams = []
    if page is not None:
        params.append(("page", str(page)))
    if items_per_page is not None:
        params.append(("itemsPerPage", str(items_per_page)))
    params.extend((f"order[{field}]", direction) for field, direction in (order or {}).items())
    params.extend(("includes[]", relation) for relation in includes)
    for name, value in (filters or {}).items():
        if value is None or value == "":
            continue
        if isinstance(value, str | int | float | date):
            params.append((name, _encode(value)))
        else:
            list_name = name if name.endswith("[]") else f"{name}[]"
            params.extend((list_name, _encode(item)) for item in value if item != "")
    return params


def _encode(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def uuid_from_iri(iri: str) -> str:
    """The last path segment of an IRI or URL: ``/api/services/abc`` → ``abc``."""
    return urlsplit(iri).path.rstrip("/").rsplit("/", 1)[-1]


class Page(BaseModel, Generic[T]):
    """One page of a collection, read from ``hydra:member``/``hydra:totalItems`` or from the
    ``items``/``totalItems`` spelling of sensors and maintenances (or a bare JSON list)."""

    items: list[T]
    total: int
    page: int = 1
    items_per_page: int = DEFAULT_ITEMS_PER_PAGE

    @model_validator(mode="before")
    @classmethod
    def _read_collection(cls, data: Any) -> Any:
        if isinstance(data, list):
            return {"items": data, "total": len(data)}
        if not isinstance(data, Mapping):
            return data
        members = _first(data, "hydra:member", "member", "items")
        if members is None:
            return data
        total = _first(data, "hydra:totalItems", "totalItems", "total")
        return {
            "items": members,
            "total": len(members) if total is None and isinstance(members, list) else total,
            "page": data.get("page", 1),
            "items_per_page": data.get("items_per_page", DEFAULT_ITEMS_PER_PAGE),
        }

    @property
    def page_count(self) -> int:
        """Pages of the whole collection; an empty collection still has its one (empty) page."""
        return max(1, math.ceil(self.total / max(1, self.items_per_page)))


def _first(data: Mapping[str, Any], *names: str) -> Any:
    return next((data[name] for name in names if name in data), None)
