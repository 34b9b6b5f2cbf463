"""The services list's address (spec 2: search, status (list), type.uuid (list),
showAdvancedSearch, page), sorted on the start date, newest first, twelve to a page (spec 9)."""

from portal.client.models import ServiceFilters
from portal.components.paging import DESCENDING, Paging
from portal.list_query import ListUrl

SERVICES_PER_PAGE = 12  # spec 9
# The status and type filters, shown below the search bar (docs/decisions/services-screens.md).
SHOW_ADVANCED_SEARCH = "showAdvancedSearch"
SERVICES_URL = ListUrl(
    ServiceFilters,
    Paging(items_per_page=SERVICES_PER_PAGE, sort_field="dateStart", sort_direction=DESCENDING),
    sort_fields=("reference", "status", "dateStart"),
    page_sizes=(SERVICES_PER_PAGE,),
    flags=(SHOW_ADVANCED_SEARCH,),
)


def status_list_url(path: str, status: str) -> str:
    """The list filtered on one status, as the tiles link to it."""
    return SERVICES_URL.url(path, ServiceFilters.model_validate({"statuses": [status]}))
