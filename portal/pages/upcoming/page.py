"""Routes of the table whose screens are delivered by later issues.

They exist now so the route table, the guard and the navbar are whole; each shows its title,
its breadcrumbs and a plain notice until its screen lands (docs/decisions/route-table-first.md).
"""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page


def _notice() -> rx.Component:
    return rx.callout(
        _("This section is being prepared and will be available soon."),
        icon="construction",
        color_scheme="purple",
        variant="soft",
    )


def _register(route: routes.Route, parent: routes.Route | None = None) -> None:
    crumbs = ((_(parent.label), parent.path), (_(route.label), "")) if parent else None
    page(route, crumbs=crumbs)(_notice)


for _route, _parent in (
    (routes.MONITORING, None),
    (routes.TICKETS, None),
    (routes.TICKET, routes.TICKETS),
    (routes.INVOICES, None),
    (routes.CONTACTS, None),
):
    _register(_route, _parent)
