"""The page of a route whose screen is delivered by a later issue: its title, its breadcrumbs
and a plain notice, so the route table, the guard and the navbar are whole meanwhile
(docs/decisions/route-table-first.md)."""

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


def _parent(route: routes.Route) -> routes.Route | None:
    """The list an item route belongs to: /tickets for /tickets/[id]."""
    head = route.path.rsplit("/", 1)[0]
    return next((r for r in routes.ROUTES if r.path == head and head), None)


def upcoming_page(route: routes.Route) -> None:
    parent = _parent(route)
    crumbs = ((_(parent.label), parent.path), (_(route.label), "")) if parent else None
    page(route, crumbs=crumbs)(_notice)
