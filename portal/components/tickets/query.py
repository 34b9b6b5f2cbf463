"""The tickets list's address (spec 2: id, status (list), subject, page), newest first, 12, 24
or 48 to a page (spec 9), and the dashboard's five newest."""

from portal.client.models import TicketFilters
from portal.components.paging import DASHBOARD_ROWS, DESCENDING, Paging
from portal.list_query import ListUrl

TICKET_PAGE_SIZES = (12, 24, 48)  # spec 9
# The sort choices of the card mode; the table sorts on the same fields.
SORT_FIELDS = ("dateCreated", "id", "status", "priority", "subject", "accountName")
TICKETS_URL = ListUrl(
    TicketFilters,
    Paging(
        items_per_page=TICKET_PAGE_SIZES[0], sort_field="dateCreated", sort_direction=DESCENDING
    ),
    sort_fields=SORT_FIELDS,
    page_sizes=TICKET_PAGE_SIZES,
)
LAST_TICKETS_URL = ListUrl(
    TicketFilters,
    Paging(items_per_page=DASHBOARD_ROWS, sort_field="dateCreated", sort_direction=DESCENDING),
    sort_fields=SORT_FIELDS,
    page_sizes=(DASHBOARD_ROWS,),
)


def tickets_url(path: str, statuses: list[str]) -> str:
    """The list filtered on these statuses, as the tiles link to it."""
    return TICKETS_URL.url(path, TicketFilters.model_validate({"statuses": statuses}))
