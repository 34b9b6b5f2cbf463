"""Breadcrumbs: Home > section > item."""

import reflex as rx

from portal.components.i18n import _
from portal.routes import HOME

Crumb = tuple[rx.Var | str, str]  # label, path ("" for the current page)


def breadcrumbs(*crumbs: Crumb) -> rx.Component:
    items: list[rx.Component] = [rx.link(_(HOME.label), href=HOME.path, size="2")]
    for label, path in crumbs:
        items.append(rx.icon("chevron-right", size=14, color=rx.color("gray", 9)))
        items.append(
            rx.link(label, href=path, size="2")
            if path
            else rx.text(label, size="2", color=rx.color("gray", 11), aria_current="page")
        )
    return rx.el.nav(
        rx.hstack(*items, align="center", spacing="1", wrap="wrap"),
        aria_label=_("Breadcrumbs"),
    )
