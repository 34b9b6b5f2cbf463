"""Page, page size and sort of a server-paged list, in the common list parameters that the URL
and the provider share (spec 7: ``page``, ``itemsPerPage``, ``order[field]=asc|desc``)."""

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

ASCENDING, DESCENDING = "asc", "desc"
DEFAULT_ITEMS_PER_PAGE = 10
# The provider's largest page (DESIGN 3, a documented maximum): a table offering this size
# labels it "All" (spec 9: service maintenances 10 or all).
ALL_ROWS = 100
DASHBOARD_ROWS = 5  # spec 2: the dashboard's lists, five to a page, newest first
PAGE_BUTTONS = 7  # numbered page buttons shown around the current page
# Far beyond any real list; a longer number in a hand-edited URL is not a page.
_MAX_PAGE_DIGITS = 6


@dataclass(frozen=True)
class Paging:
    """Page, page size and sort of a server-paged list."""

    page: int = 1
    items_per_page: int = DEFAULT_ITEMS_PER_PAGE
    sort_field: str = ""
    sort_direction: str = ASCENDING

    @property
    def order(self) -> dict[str, str]:
        return {self.sort_field: self.sort_direction} if self.sort_field else {}

    def arguments(self) -> dict[str, Any]:
        """The keyword arguments of a client's list call."""
        return {"page": self.page, "items_per_page": self.items_per_page, "order": self.order}

    def read(
        self,
        params: Mapping[str, str],
        *,
        sort_fields: Collection[str],
        page_sizes: Collection[int],
    ) -> "Paging":
        """The paging a URL query asks for; ``self`` stands in for what is missing or invalid,
        so a hand-edited URL never reaches the provider with a page size or sort it refuses."""
        page = _positive_int(params.get("page"))
        size = _positive_int(params.get("itemsPerPage"))
        sort = next(
            (
                (field, params[f"order[{field}]"])
                for field in sort_fields
                if params.get(f"order[{field}]") in (ASCENDING, DESCENDING)
            ),
            (self.sort_field, self.sort_direction),
        )
        return Paging(
            page=page or self.page,
            items_per_page=size if size in page_sizes else self.items_per_page,
            sort_field=sort[0],
            sort_direction=sort[1],
        )

    def to_params(self, default: "Paging") -> dict[str, str]:
        """The URL parameters of what differs from ``default``, so a list left as it opened
        keeps a bare URL."""
        params: dict[str, str] = {}
        if self.page != default.page:
            params["page"] = str(self.page)
        if self.items_per_page != default.items_per_page:
            params["itemsPerPage"] = str(self.items_per_page)
        if self.order != default.order:
            params.update((f"order[{field}]", way) for field, way in self.order.items())
        return params

    def sorted_by(self, field: str) -> "Paging":
        """Sorting by ``field``: the active column flips its direction, another one starts
        ascending; the list always keeps a sort and goes back to its first page."""
        if field == self.sort_field:
            direction = DESCENDING if self.sort_direction == ASCENDING else ASCENDING
        else:
            direction = ASCENDING
        return replace(self, page=1, sort_field=field, sort_direction=direction)


def _positive_int(text: str | None) -> int:
    if not text or not text.isdigit() or len(text) > _MAX_PAGE_DIGITS:
        return 0
    return int(text)


def page_window(page: int, page_count: int, buttons: int = PAGE_BUTTONS) -> list[int]:
    """The page numbers to offer: up to ``buttons`` of them, the current page as centred as
    the ends allow."""
    first = max(1, min(page - buttons // 2, page_count - buttons + 1))
    return list(range(first, min(page_count, first + buttons - 1) + 1))
