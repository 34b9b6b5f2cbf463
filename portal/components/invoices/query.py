"""The invoices list's address (spec 2: isPaid, type, reference, dateDueAfter, dateDueBefore,
page, itemsPerPage, order[field]), sorted on the invoice date, newest first, 10 or 25 to a
page."""

from portal.client.models import InvoiceFilters
from portal.components.paging import DESCENDING, Paging
from portal.list_query import ListUrl

INVOICES_URL = ListUrl(
    InvoiceFilters,
    Paging(sort_field="dateInvoice", sort_direction=DESCENDING),
    sort_fields=("reference", "dateInvoice", "dateDue", "amount"),
    page_sizes=(10, 25),
)
