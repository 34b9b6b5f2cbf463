"""Any other path (spec 2): the 'not found' title and a button back home."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page


@page(routes.NOT_FOUND, login_layout_=True)
def not_found() -> rx.Component:
    return rx.vstack(
        rx.icon("map-pin-off", size=40, color=rx.color("purple", 9)),
        rx.heading(_("Page not found"), size="6", as_="h1"),
        rx.text(_("The page you asked for does not exist or has moved.")),
        rx.link(rx.button(_("Back to home"), size="3"), href=routes.HOME.path),
        spacing="4",
        align="center",
        text_align="center",
        width="100%",
    )
