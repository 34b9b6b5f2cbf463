"""One package per page, found rather than listed: ``add_pages`` imports the ``page`` module of
every package here (which registers its routes), gives each route of the table that still has
no page the "being prepared" notice, and adds them all to the app."""

import importlib
import pkgutil

import reflex as rx

from portal import routes
from portal.components import page as pages
from portal.components.upcoming import upcoming_page


def discover() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}.page")
    built = {entry.route for entry in pages.PAGES}
    for route in routes.ROUTES:
        if route.path not in built:
            upcoming_page(route)


def add_pages(app: rx.App) -> None:
    discover()
    pages.add_pages(app)
