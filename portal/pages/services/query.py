"""The services list's filters and page as the URL spells them (spec 2: search, status (list),
type.uuid (list), page), and the provider's spelling of the same."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from portal.components.paging import DESCENDING, Paging
from portal.components.service_status import STATUS_LABELS

SERVICES_PER_PAGE = 12  # spec 9
SORT_FIELDS = ("reference", "status", "dateStart")
DEFAULT_PAGING = Paging(
    items_per_page=SERVICES_PER_PAGE, sort_field="dateStart", sort_direction=DESCENDING
)
STATUS_PARAM, TYPE_PARAM, SEARCH_PARAM = "status", "type.uuid", "search"


@dataclass(frozen=True)
class ServicesQuery:
    search: str = ""
    statuses: tuple[str, ...] = ()
    type_uuids: tuple[str, ...] = ()
    paging: Paging = field(default=DEFAULT_PAGING)

    @classmethod
    def from_params(cls, pairs: Sequence[tuple[str, str]]) -> "ServicesQuery":
        """The query of a URL's parameters; list filters repeat (``status=a&status=b``), the
        bracket spelling (``status[]=a``) is read too; unknown statuses are dropped."""

        def values(name: str) -> tuple[str, ...]:
            found = [v for k, v in pairs if k in (name, f"{name}[]") and v]
            return tuple(dict.fromkeys(found))

        single = dict(pairs)
        return cls(
            search=single.get(SEARCH_PARAM, "").strip(),
            statuses=tuple(s for s in values(STATUS_PARAM) if s in STATUS_LABELS),
            type_uuids=values(TYPE_PARAM),
            paging=DEFAULT_PAGING.read(
                single, sort_fields=SORT_FIELDS, page_sizes=(SERVICES_PER_PAGE,)
            ),
        )

    def filter_params(self) -> list[tuple[str, str]]:
        params = [(SEARCH_PARAM, self.search)] if self.search else []
        params += [(STATUS_PARAM, status) for status in self.statuses]
        params += [(TYPE_PARAM, uuid) for uuid in self.type_uuids]
        return params

    def to_params(self) -> list[tuple[str, str]]:
        return self.filter_params() + list(self.paging.to_params(DEFAULT_PAGING).items())

    def url(self, path: str) -> str:
        params = self.to_params()
        return path + ("?" + urlencode(params, safe="[]") if params else "")

    def export_params(self) -> list[tuple[str, str]]:
        """The provider's spelling of the filters, for the export of what the list shows."""
        params = [(SEARCH_PARAM, self.search)] if self.search else []
        params += [(f"{STATUS_PARAM}[]", status) for status in self.statuses]
        params += [(f"{TYPE_PARAM}[]", uuid) for uuid in self.type_uuids]
        return params


def status_list_url(path: str, status: str) -> str:
    """The list filtered on one status, as the tiles link to it."""
    return ServicesQuery(statuses=(status,)).url(path)
