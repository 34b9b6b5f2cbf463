"""The navbar (spec 2, Layout): the routes flagged for it, sorted by position and filtered by
the Menu permissions; the language selector; the user menu; a drawer on small screens."""

import reflex as rx
from reflex.components.radix.themes.components.dropdown_menu import DropdownMenuItem

from portal import routes
from portal.components.i18n import _
from portal.components.pdf_dialog import DocumentationState
from portal.i18n import LANGUAGE_NAMES
from portal.settings import get_settings
from portal.state.preferences import LanguageState, PreferencesState
from portal.state.session import SessionState

# The purple of the bars: a step per theme that keeps white text at 4.5:1 (assets/styles.css).
BAR_COLOUR = "var(--bar-colour)"


def brand() -> rx.Component:
    # The name gives way first on a narrow screen (320 CSS pixels: 400 % zoom, WCAG 1.4.10).
    return rx.link(
        rx.hstack(
            rx.icon("waypoints", size=24, color=rx.color("grass", 9), flex_shrink="0"),
            rx.text(
                get_settings().company_name,
                size="5",
                weight="bold",
                color="white",
                truncate=True,
            ),
            align="center",
            spacing="2",
            min_width="0",
        ),
        href=routes.HOME.path,
        underline="none",
        # The visible name first (WCAG 2.5.3, label in name: "click Patchbay" works by voice).
        aria_label=_("{company}, home", company=get_settings().company_name),
        min_width="0",
    )


def _visible(route: routes.Route) -> rx.Var[bool]:
    return SessionState.allows(route.permission) if route.permission else rx.Var.create(True)


def _nav_link(route: routes.Route, on_click=None) -> rx.Component:
    active = SessionState.router.url.path.startswith(route.path)
    return rx.cond(
        _visible(route),
        rx.link(
            _(route.label),
            href=route.path,
            color="white",
            weight="medium",
            size="3",
            underline="none",
            padding_y="6px",
            border_bottom=rx.cond(
                active, f"3px solid {rx.color('grass', 9)}", "3px solid transparent"
            ),
            aria_current=rx.cond(active, "page", "false"),
            on_click=on_click,
        ),
    )


def language_selector() -> rx.Component:
    """The browser's own select: it needs none of the JavaScript a Radix select brings to every
    page (issue 11), and keyboards, screen readers and phones know it. Pages paint before their
    scripts run (docs/decisions/first-load.md): until the page is hydrated a choice would reach
    no handler and be undone, so the select waits, as the login form does."""
    return rx.el.select(
        # Each language's name in that language, read out in it (WCAG 3.1.2).
        *(rx.el.option(name, value=code, lang=code) for code, name in LANGUAGE_NAMES.items()),
        value=LanguageState.shown,
        on_change=PreferencesState.set_language,
        disabled=~rx.State.is_hydrated,
        aria_label=_("Language"),
        class_name="language-select",
    )


class MenuCheckboxItem(DropdownMenuItem):
    """Radix's checkbox item of a menu, which Reflex does not wrap: a menu holds menu items only
    (WCAG 4.1.2), and this one says whether it is checked, as a switch would."""

    tag = "DropdownMenu.CheckboxItem"

    checked: rx.Var[bool]


def user_menu() -> rx.Component:
    # Not modal: a modal menu hides the page from screen readers while its links stay focusable.
    return rx.menu.root(
        rx.menu.trigger(
            rx.icon_button(
                rx.icon("circle-user-round", size=22),
                variant="ghost",
                color="white",
                radius="full",
                size="3",
                aria_label=_("User menu"),
            )
        ),
        rx.menu.content(
            rx.box(
                rx.text(SessionState.email, size="2", weight="medium", truncate=True),
                padding_x="12px",
                padding_y="6px",
                max_width="280px",
            ),
            rx.menu.separator(),
            rx.menu.item(
                rx.hstack(rx.icon("user", size=16), _("My profile")),
                on_click=rx.redirect(SessionState.profile_path),
            ),
            rx.menu.item(
                rx.hstack(rx.icon("bell", size=16), _(routes.NOTIFICATIONS.label)),
                on_click=rx.redirect(routes.NOTIFICATIONS.path),
            ),
            MenuCheckboxItem.create(
                rx.hstack(rx.icon("moon", size=16), _("Dark mode")),
                checked=rx.color_mode_cond(light=False, dark=True),
                on_select=rx.toggle_color_mode,
            ),
            rx.menu.item(
                rx.hstack(rx.icon("book-open", size=16), _("Documentation")),
                on_click=DocumentationState.set_open(True),
            ),
            # Issue 51: one's personal API tokens, for those who may make them.
            rx.cond(
                _visible(routes.API_ACCESS),
                rx.menu.item(
                    rx.hstack(rx.icon("key-round", size=16), _(routes.API_ACCESS.label)),
                    on_click=rx.redirect(routes.API_ACCESS.path),
                ),
            ),
            # Issue 52: a company's single sign-on, for administrators.
            rx.cond(
                _visible(routes.SSO_SETTINGS),
                rx.menu.item(
                    rx.hstack(rx.icon("log-in", size=16), _(routes.SSO_SETTINGS.label)),
                    on_click=rx.redirect(routes.SSO_SETTINGS.path),
                ),
            ),
            # Issue 51: a company's webhook endpoints, for its user managers.
            rx.cond(
                _visible(routes.WEBHOOKS),
                rx.menu.item(
                    rx.hstack(rx.icon("webhook", size=16), _(routes.WEBHOOKS.label)),
                    on_click=rx.redirect(routes.WEBHOOKS.path),
                ),
            ),
            # Issue 52: the companies' login policy, for administrators.
            rx.cond(
                _visible(routes.COMPANIES),
                rx.menu.item(
                    rx.hstack(rx.icon("building-2", size=16), _(routes.COMPANIES.label)),
                    on_click=rx.redirect(routes.COMPANIES.path),
                ),
            ),
            # Issue 17: the audit log, for administrators.
            rx.cond(
                _visible(routes.AUDIT_LOG),
                rx.menu.item(
                    rx.hstack(rx.icon("scroll-text", size=16), _(routes.AUDIT_LOG.label)),
                    on_click=rx.redirect(routes.AUDIT_LOG.path),
                ),
            ),
            rx.menu.separator(),
            rx.menu.item(
                rx.hstack(rx.icon("log-out", size=16), _("Logout")),
                on_click=SessionState.log_out,
                color_scheme="red",
            ),
            min_width="240px",
        ),
        modal=False,
    )


class DrawerState(rx.State):
    open: bool = False

    @rx.event
    def set_open(self, value: bool):
        self.open = value


def _drawer() -> rx.Component:
    """The navigation of small screens: a dialog sliding from the left edge. A Radix dialog the
    pages load anyway, rather than a drawer library of its own on every page (issue 11)."""
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.icon_button(
                rx.icon("menu", size=22),
                variant="ghost",
                color="white",
                aria_label=_("Open the menu"),
            )
        ),
        rx.dialog.content(
            rx.vstack(
                rx.hstack(
                    rx.dialog.title(
                        get_settings().company_name, size="4", weight="bold", color="white"
                    ),
                    rx.spacer(),
                    rx.dialog.close(
                        rx.icon_button(
                            rx.icon("x"),
                            variant="ghost",
                            color="white",
                            aria_label=_("Close"),
                        )
                    ),
                    width="100%",
                    align="center",
                ),
                rx.el.nav(
                    rx.vstack(
                        *(
                            _nav_link(route, on_click=DrawerState.set_open(False))
                            for route in routes.NAVBAR_ROUTES
                        ),
                        spacing="3",
                        align="start",
                    ),
                    aria_label=_("Main navigation"),
                ),
                spacing="3",
                align="start",
            ),
            class_name="navigation-sheet",
            aria_describedby=None,
            background_color=BAR_COLOUR,
        ),
        open=DrawerState.open,
        on_open_change=DrawerState.set_open,
    )


def navbar() -> rx.Component:
    return rx.el.header(
        rx.hstack(
            rx.mobile_and_tablet(_drawer()),
            brand(),
            rx.desktop_only(
                rx.el.nav(
                    rx.hstack(
                        *(_nav_link(route) for route in routes.NAVBAR_ROUTES),
                        spacing="5",
                        margin_left="32px",
                        align="center",
                    ),
                    aria_label=_("Main navigation"),
                ),
            ),
            rx.spacer(),
            language_selector(),
            user_menu(),
            align="center",
            spacing="3",
            padding_x=["12px", "16px", "24px"],
            height="56px",
        ),
        background_color=BAR_COLOUR,
        position="sticky",
        top="0",
        z_index="1000",
        box_shadow="var(--shadow-3)",
    )
