"""The users list's address (spec 2: name, email, page, itemsPerPage, order[field]), sorted on
the last name, ten or twenty-five to a page."""

from portal.client.models import UserFilters
from portal.components.paging import ASCENDING, Paging
from portal.list_query import ListUrl

USERS_URL = ListUrl(
    UserFilters,
    Paging(sort_field="lastname", sort_direction=ASCENDING),
    sort_fields=("lastname", "firstname", "email"),
    page_sizes=(10, 25),
)
