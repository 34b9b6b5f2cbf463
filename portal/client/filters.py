"""A list's filters, declared once per resource.

Each field of a ``Filters`` model names its provider parameter with ``Param`` (and the portal's
URL parameter where the spec spells it differently), so the list call, the export and the
address bar all read the same declaration:

    class ServiceFilters(Filters):
        search: Annotated[str, Param("search")] = ""
        statuses: Annotated[list[ServiceStatus], Param("status")] = []

Text is sent trimmed: a filter field holds what its input holds, spaces included.
"""

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from pydantic import BaseModel

from portal.client.hydra import FilterValue

# What a select offers for "no filter": Radix's items cannot carry an empty value.
ANY = "any"


@dataclass(frozen=True)
class Param:
    """A filter's parameter: its provider name, and its URL name when the spec gives another."""

    name: str
    url: str = ""

    @property
    def url_name(self) -> str:
        return self.url or self.name


class Filters(BaseModel):
    """The filters of one list; every field carries its ``Param`` and a default that filters
    nothing. ``ranges`` names the (start, end) pairs of a range: whichever end is typed or read
    from a URL, the earlier value is always the start (spec 2: the due-date range)."""

    ranges: ClassVar[tuple[tuple[str, str], ...]] = ()

    @classmethod
    def params(cls) -> dict[str, Param]:
        """Each field's parameter, in the order of the declaration."""
        found: dict[str, Param] = {}
        for name, field in cls.model_fields.items():
            param = next((m for m in field.metadata if isinstance(m, Param)), None)
            if param is None:
                raise TypeError(f"{cls.__name__}.{name} has no Param")
            found[name] = param
        return found

    def values(self) -> dict[str, Any]:
        """Each field's value as it is sent: text trimmed, lists without repeats."""
        return {name: _sent(getattr(self, name)) for name in self.params()}

    def to_provider(self) -> dict[str, FilterValue]:
        """The filters under the provider's names; empty ones are left out by the query."""
        values = self.values()
        return {param.name: values[name] for name, param in self.params().items()}

    def with_value(self, name: str, value: Any) -> Self:
        """A copy with one field changed, validated as the field declares it; ``ANY`` or an
        emptied input gives the field its default (a select's "All", a cleared date)."""
        if name not in self.params():
            raise KeyError(name)
        if value in (ANY, ""):
            value = type(self).model_fields[name].get_default(call_default_factory=True)
        return self.model_validate({**self.model_dump(), name: value}).in_order()

    def in_order(self) -> Self:
        """A copy whose ranges run forwards: the ends of one given backwards are swapped."""
        swapped: dict[str, Any] = {}
        for start, end in self.ranges:
            first, last = getattr(self, start), getattr(self, end)
            if first is not None and last is not None and first > last:
                swapped |= {start: last, end: first}
        return self.model_copy(update=swapped) if swapped else self

    def same_query(self, other: "Filters") -> bool:
        """Whether both ask the provider the same thing (typing a space changes nothing)."""
        return self.values() == other.values()

    @property
    def active(self) -> bool:
        return any(value not in (None, "", []) for value in self.values().values())


def _sent(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return list(dict.fromkeys(value))
    return value
