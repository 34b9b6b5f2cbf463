"""Home: the welcome title and the way into each section the user may open."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.i18n import N_
from portal.settings import get_settings
from portal.state.session import SessionState

# A card per section whose screen exists: the sections still being prepared (monitoring,
# contacts) get theirs, or the spec's dashboard tiles, with their screens.
_SECTIONS = (
    (
        routes.SERVICES,
        "network",
        N_("Follow your services, their status, endpoints and documents."),
    ),
    (
        routes.TICKETS,
        "life-buoy",
        N_("Follow your support tickets and the escalation path."),
    ),
    (
        routes.INVOICES,
        "receipt-euro",
        N_("See what is due and overdue, and download your invoices and credit notes."),
    ),
    (routes.USERS, "users", N_("See the users of your company and their roles.")),
)


def _section_card(route: routes.Route, icon: str, description: str) -> rx.Component:
    return rx.cond(
        SessionState.allows(route.permission) if route.permission else True,
        rx.link(
            rx.card(
                rx.hstack(
                    rx.center(
                        rx.icon(icon, size=22, color="white"),
                        background_color=rx.color("purple", 9),
                        border_radius="var(--radius-3)",
                        width="44px",
                        height="44px",
                        flex_shrink="0",
                    ),
                    rx.vstack(
                        rx.heading(_(route.label), size="4", as_="h2"),
                        rx.text(_(description), size="2", color=rx.color("gray", 11)),
                        spacing="1",
                    ),
                    spacing="3",
                    align="start",
                ),
                height="100%",
                _hover={"box_shadow": "var(--shadow-3)"},
            ),
            href=route.path,
            underline="none",
            color="inherit",
        ),
    )


@page(
    routes.HOME,
    crumbs=(),
    title=_("Welcome to your {company} customer portal", company=get_settings().company_name),
)
def home() -> rx.Component:
    return rx.vstack(
        rx.text(
            _(
                "Signed in as {name}, {company}.",
                name=SessionState.full_name,
                company=SessionState.company_name,
            ),
            color=rx.color("gray", 11),
        ),
        rx.text(
            _("Signed in since {moment}.", moment=SessionState.signed_in_since),
            size="2",
            color=rx.color("gray", 10),
            data_testid="signed-in-since",
        ),
        rx.grid(
            *(_section_card(*section) for section in _SECTIONS),
            columns=rx.breakpoints(initial="1", sm="2", lg="3"),
            spacing="4",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )
