"""A list screen's address: its filters, page, size and sort read from the URL and written back,
so a reload, back and forward or a shared link give the same list.

The filters are the client's ``Filters`` model of the resource: the URL uses each field's
``Param`` name (list filters repeat: ``status=a&status=b``; the bracket spelling is read too),
and what the URL cannot hold (an unknown status, a malformed date) is dropped, not sent.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any, Generic, TypeVar, get_args, get_origin
from urllib.parse import urlencode

from pydantic import TypeAdapter, ValidationError

from portal.client.filters import Filters
from portal.components.paging import Paging

QueryPairs = Sequence[tuple[str, str]]
F = TypeVar("F", bound=Filters)


@dataclass(frozen=True)
class ListUrl(Generic[F]):
    """One list screen's URL: its filters model, its opening paging, what it may sort on, the
    page sizes it offers, and the on/off choices of what the screen shows (``flags``, e.g. the
    services list's ``showAdvancedSearch``), off unless the URL turns them on."""

    filters: type[F]
    paging: Paging
    sort_fields: tuple[str, ...]
    page_sizes: tuple[int, ...]
    flags: tuple[str, ...] = ()

    def read(self, pairs: QueryPairs) -> tuple[F, Paging]:
        """The filters and paging a URL's query asks for; defaults stand in for the invalid."""
        values: dict[str, Any] = {}
        for name, param in self.filters.params().items():
            annotation = self.filters.model_fields[name].annotation
            found = [v.strip() for k, v in pairs if k in (param.url_name, f"{param.url_name}[]")]
            found = [v for v in dict.fromkeys(found) if v]
            if get_origin(annotation) is list:
                values[name] = [v for v in (_valid(get_args(annotation)[0], f) for f in found) if v]
            elif found:
                value = _valid(annotation, found[-1])
                if value is not None:
                    values[name] = value
        single = dict(pairs)
        paging = self.paging.read(single, sort_fields=self.sort_fields, page_sizes=self.page_sizes)
        # A range given backwards reads as the same range typed in the filters would.
        return self.filters.model_validate(values).in_order(), paging

    def read_flags(self, pairs: QueryPairs) -> list[str]:
        """The flags a URL's query turns on (``1`` or ``true``; anything else leaves one off)."""
        on = {name for name, value in pairs if _valid(bool, value.strip())}
        return [flag for flag in self.flags if flag in on]

    def params(
        self, filters: F, paging: Paging | None = None, flags: Sequence[str] = ()
    ) -> list[tuple[str, str]]:
        """The URL's parameters: the filled filters, what differs from the opening paging, then
        the flags turned on."""
        pairs: list[tuple[str, str]] = []
        values = filters.values()
        for name, param in self.filters.params().items():
            value = values[name]
            items = value if isinstance(value, list) else [value]
            pairs += [(param.url_name, _spelled(item)) for item in items if item not in (None, "")]
        pairs += list((paging or self.paging).to_params(self.paging).items())
        return pairs + [(flag, _spelled(True)) for flag in self.flags if flag in flags]

    def url(
        self, path: str, filters: F, paging: Paging | None = None, flags: Sequence[str] = ()
    ) -> str:
        """``path`` with this query; brackets stay readable (``order[email]=desc``)."""
        params = self.params(filters, paging, flags)
        return path + ("?" + urlencode(params, safe="[]") if params else "")


@cache
def _adapter(annotation: Any) -> TypeAdapter[Any]:
    return TypeAdapter(annotation)


def _valid(annotation: Any, text: str) -> Any:
    try:
        return _adapter(annotation).validate_python(text)
    except ValidationError:
        return None


def _spelled(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, date):
        return value.isoformat()
    return str(value)
