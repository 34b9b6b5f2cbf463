"""Pages are found, not listed: every route of the table gets exactly one page, the page
packages' own or, while its screen is still to come, the "being prepared" notice."""

from collections import Counter

import portal.portal  # noqa: F401  (adds the pages, as the running app does)
from portal import routes
from portal.components.page import PAGES
from portal.components.upcoming import _parent


def test_every_route_has_exactly_one_page() -> None:
    registered = Counter(entry.route for entry in PAGES)
    assert set(registered) == {route.path for route in routes.ROUTES}
    assert max(registered.values()) == 1


def test_an_item_route_keeps_its_list_in_the_breadcrumbs() -> None:
    assert _parent(routes.TICKET) is routes.TICKETS
    assert _parent(routes.INVOICES) is None
