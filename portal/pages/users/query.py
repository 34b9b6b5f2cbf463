"""The users list's filters, page and sort, as the URL and the provider spell them (spec 2:
name, email, page, itemsPerPage, order[field])."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

from portal.components.paging import ASCENDING, Paging

SORT_FIELDS = ("lastname", "firstname", "email")
PAGE_SIZES = (10, 25)
DEFAULT_PAGING = Paging(sort_field="lastname", sort_direction=ASCENDING)


@dataclass(frozen=True)
class UsersQuery:
    name: str = ""
    email: str = ""
    paging: Paging = field(default=DEFAULT_PAGING)

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> "UsersQuery":
        return cls(
            name=params.get("name", "").strip(),
            email=params.get("email", "").strip(),
            paging=DEFAULT_PAGING.read(params, sort_fields=SORT_FIELDS, page_sizes=PAGE_SIZES),
        )

    def to_params(self) -> dict[str, str]:
        filters = {"name": self.name, "email": self.email}
        return {
            **{key: value for key, value in filters.items() if value},
            **self.paging.to_params(DEFAULT_PAGING),
        }

    def url(self, path: str) -> str:
        """``path`` with this query; brackets stay readable (``order[email]=desc``)."""
        params = self.to_params()
        return path + ("?" + urlencode(params, safe="[]") if params else "")
