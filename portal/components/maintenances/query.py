"""The maintenances list's address: newest start first, 10 or all to a page (spec 9), and the
dashboard's five newest."""

from portal.client.models import MaintenanceFilters
from portal.components.paging import ALL_ROWS, DASHBOARD_ROWS, DESCENDING, Paging
from portal.list_query import ListUrl

MAINTENANCES_URL = ListUrl(
    MaintenanceFilters,
    Paging(sort_field="dateStart", sort_direction=DESCENDING),
    sort_fields=("dateStart", "dateEnd", "dateNotification"),
    page_sizes=(10, ALL_ROWS),
)
DASHBOARD_MAINTENANCES_URL = ListUrl(
    MaintenanceFilters,
    Paging(items_per_page=DASHBOARD_ROWS, sort_field="dateStart", sort_direction=DESCENDING),
    sort_fields=MAINTENANCES_URL.sort_fields,
    page_sizes=(DASHBOARD_ROWS,),
)
