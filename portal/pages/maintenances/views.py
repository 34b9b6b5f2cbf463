"""The maintenances view: the list or the calendar (``maintenances_browser``), then the card
of the user's private calendar feed."""

import reflex as rx

from portal.components.i18n import _
from portal.components.maintenances.browser import maintenances_browser
from portal.pages.maintenances.state import CalendarFeedState, MaintenancesState


def _count() -> rx.Component:
    return rx.text(
        rx.cond(
            MaintenancesState.total == 1,
            _("1 maintenance"),
            _("{count} maintenances", count=MaintenancesState.total),
        ),
        size="2",
        color=rx.color("gray", 11),
        data_testid="maintenances-count",
    )


def _new_link() -> rx.Component:
    """The URL, shown once, with its copy button."""
    return rx.vstack(
        rx.text(
            _("Your private link, shown only now: copy it into your calendar program."),
            size="2",
            weight="medium",
        ),
        rx.flex(
            rx.input(
                value=CalendarFeedState.url,
                read_only=True,
                flex="1",
                min_width="0",
                aria_label=_("Calendar link"),
                data_testid="feed-url",
                on_focus=rx.call_script("document.activeElement.select()"),
            ),
            rx.button(
                rx.cond(
                    CalendarFeedState.copied, rx.icon("check", size=14), rx.icon("copy", size=14)
                ),
                rx.cond(CalendarFeedState.copied, _("Copied"), _("Copy")),
                on_click=CalendarFeedState.copy,
                variant="soft",
            ),
            spacing="2",
            width="100%",
        ),
        spacing="2",
        width="100%",
    )


def _state_line() -> rx.Component:
    return rx.cond(
        CalendarFeedState.active,
        rx.text(
            _("A private link exists since {moment}.", moment=CalendarFeedState.created),
            rx.cond(
                CalendarFeedState.last_read != "",
                rx.text.span(
                    " ",
                    _(
                        "Last read by a calendar program: {moment}.",
                        moment=CalendarFeedState.last_read,
                    ),
                ),
            ),
            size="2",
            data_testid="feed-state",
        ),
        rx.text(_("You have no calendar link."), size="2", data_testid="feed-state"),
    )


def feed_card() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(_("Subscribe in your calendar"), size="3", as_="h2"),
            rx.text(
                _(
                    "Outlook, Google Calendar, Apple Calendar or Thunderbird can show these "
                    "maintenances beside your own appointments, kept up to date, through a "
                    "private link. Whoever has the link sees your maintenances: keep it to "
                    "yourself, and make a new one if it has been shared."
                ),
                size="2",
                color=rx.color("gray", 11),
            ),
            _state_line(),
            rx.cond(CalendarFeedState.url != "", _new_link()),
            rx.flex(
                rx.button(
                    rx.icon("link", size=14),
                    rx.cond(
                        CalendarFeedState.active,
                        _("Make a new link (the current one stops working)"),
                        _("Make my calendar link"),
                    ),
                    on_click=CalendarFeedState.make,
                    loading=CalendarFeedState.busy,
                    # The longer label is wider than a phone: it wraps in the button, which
                    # grows, instead of running out of the card cut mid-word.
                    white_space="normal",
                    max_width="100%",
                    height="auto",
                    min_height="var(--base-button-height)",
                    padding_y="var(--space-1)",
                ),
                rx.cond(
                    CalendarFeedState.active,
                    rx.button(
                        rx.icon("link-2-off", size=14),
                        _("Stop the feed"),
                        on_click=CalendarFeedState.stop,
                        loading=CalendarFeedState.busy,
                        variant="soft",
                        color_scheme="red",
                    ),
                ),
                spacing="2",
                wrap="wrap",
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
        data_testid="calendar-feed",
    )


def maintenances_screen() -> rx.Component:
    return rx.vstack(
        rx.text(
            _("Every maintenance window that touches one of your services."),
            color=rx.color("gray", 11),
        ),
        maintenances_browser(MaintenancesState, _count()),
        rx.cond(CalendarFeedState.offered, feed_card()),
        spacing="4",
        width="100%",
    )
