"""One decorator for every page: its route, its layout and its guard in two layers (STYLE 9):
the ``on_load`` guard of spec 2 and a component guard that shows nothing before it has run."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import reflex as rx
from reflex.event import EventType

from portal import routes
from portal.components.breadcrumbs import Crumb
from portal.components.i18n import _
from portal.components.layout import default_layout, login_layout
from portal.components.when_ready import when_ready
from portal.routes import Access, Route
from portal.settings import get_settings
from portal.state.session import SessionState


@dataclass(frozen=True)
class PageEntry:
    component: Callable[[], rx.Component]
    route: str
    title: str
    on_load: list


# Filled by ``page`` as the page modules are imported; ``portal.py`` adds them to the app.
PAGES: list[PageEntry] = []


def add_pages(app: rx.App) -> None:
    for entry in PAGES:
        app.add_page(entry.component, route=entry.route, title=entry.title, on_load=entry.on_load)


def _waiting() -> rx.Component:
    """A viewport high: the footer starts below the fold, so the page arriving in its place
    moves nothing the user sees (Lighthouse counted the footer's jump as a layout shift)."""
    return rx.center(
        rx.spinner(size="3"), padding="48px", width="100%", min_height="100vh", align_items="start"
    )


def _forbidden() -> rx.Component:
    """In place of a page the user may not open (spec 6): why, and the way home."""
    return rx.callout(
        rx.vstack(
            rx.text(_("Forbidden access"), weight="bold"),
            rx.text(_("Your account does not give access to this page.")),
            rx.link(_("Back to home"), href=routes.HOME.path),
            spacing="2",
        ),
        icon="shield-alert",
        color_scheme="amber",
        role="alert",
    )


def _inert_until_hydrated(content: rx.Component) -> rx.Component:
    """``content`` as the prerendered page paints it, its fields and buttons disabled until the
    page is hydrated: Reflex runs the page's load events first, so the state is ready for what
    is typed (a field typed before would send no change, a form sent before would reach a state
    that its load events then reset)."""
    return rx.el.fieldset(
        content,
        disabled=~rx.State.is_hydrated,
        border="0",
        padding="0",
        margin="0",
        min_width="0",
    )


def _guarded(route: Route, content: rx.Component, *, paint_early: bool) -> rx.Component:
    ready = rx.State.is_hydrated & (SessionState.checked_path != "")
    if route.access is Access.PRIVATE:
        if route.permission is not None:
            content = rx.cond(SessionState.forbidden, _forbidden(), content)
        return when_ready(ready & SessionState.is_logged_in, content, _waiting())
    if route.access is Access.LOGGED_OUT_ONLY:
        if paint_early:
            return rx.cond(SessionState.is_logged_in, _waiting(), _inert_until_hydrated(content))
        return rx.cond(rx.State.is_hydrated & ~SessionState.is_logged_in, content, _waiting())
    return content


def page(
    route: Route,
    *,
    crumbs: Sequence[Crumb] | None = None,
    crumbs_shown: rx.Var[bool] | None = None,
    on_load: Sequence[EventType[()]] = (),
    login_layout_: bool = False,
    title: rx.Var | str | None = None,
    paint_early: bool = False,
) -> Callable[[Callable[[], rx.Component]], Callable[[], rx.Component]]:
    """Registers ``render`` as the page of ``route``.

    ``crumbs`` default to the route's own label after Home; ``title`` to the route's label;
    ``crumbs_shown`` hides them while false (a missing item, spec 2). ``paint_early`` shows a
    logged-out page's form from the prerendered HTML, before the websocket answers, inert until
    then; a page whose content depends on its load events (a token checked) waits for them.
    """
    heading = title if title is not None else _(route.label)
    trail = tuple(crumbs) if crumbs is not None else ((_(route.label), ""),)

    def decorator(render: Callable[[], rx.Component]) -> Callable[[], rx.Component]:
        def component() -> rx.Component:
            content = _guarded(route, render(), paint_early=paint_early)
            if login_layout_:
                return login_layout(content)
            return default_layout(content, heading, trail, crumbs_shown)

        # Reflex writes a page's memoized components to a module named after the page
        # function's module: the page package's own, which only that page loads, rather than
        # this module's, which every page would load (bench/run/frontend.py measures it).
        component.__module__ = render.__module__
        PAGES.append(
            PageEntry(
                component=component,
                route=route.path,
                title=f"{route.label} · {get_settings().company_name}",
                on_load=[SessionState.check_access(route.name), *on_load],
            )
        )
        return render

    return decorator
