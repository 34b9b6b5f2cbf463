"""The page of one item (a user, a service) read by id: a spinner while it loads, the item, a
notice when the provider does not find it (unknown or another company's: DESIGN 4 does not say
which), or a notice with Try again when the call failed."""

from typing import Any

import reflex as rx

from portal.components.i18n import _


def _back_link(label: rx.Var, path: str) -> rx.Component:
    return rx.link(
        rx.hstack(rx.icon("arrow-left", size=16), label, align="center", spacing="1"),
        href=path,
    )


def item_page(
    status: rx.Var[str],
    ready: rx.Component,
    *,
    missing_text: rx.Var,
    missing_icon: str,
    failed_text: rx.Var,
    retry: Any,
    back_label: rx.Var,
    back_path: str,
) -> rx.Component:
    """``status`` is "loading", "ready", "missing" or "failed"; ``retry`` reloads the item."""
    missing = rx.vstack(
        rx.callout(missing_text, icon=missing_icon, color_scheme="amber", role="alert"),
        _back_link(back_label, back_path),
        spacing="3",
    )
    failed = rx.vstack(
        rx.callout(failed_text, icon="circle-x", color_scheme="red", role="alert"),
        rx.hstack(
            rx.button(_("Try again"), on_click=retry, variant="soft"),
            _back_link(back_label, back_path),
            align="center",
            spacing="4",
        ),
        spacing="3",
    )
    loading = rx.center(
        rx.spinner(size="3"), role="status", aria_label=_("Loading"), padding="48px", width="100%"
    )
    return rx.match(status, ("ready", ready), ("missing", missing), ("failed", failed), loading)
