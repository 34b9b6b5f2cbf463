"""The audit log's address (action, email, after, before, page, itemsPerPage), newest first,
25, 50 or 100 to a page."""

from portal.client.models import AuditFilters
from portal.components.paging import DESCENDING, Paging
from portal.list_query import ListUrl

AUDIT_PAGE_SIZES = (25, 50, 100)
AUDIT_URL = ListUrl(
    AuditFilters,
    Paging(items_per_page=AUDIT_PAGE_SIZES[0], sort_field="at", sort_direction=DESCENDING),
    sort_fields=("at",),
    page_sizes=AUDIT_PAGE_SIZES,
)
