"""One package per page, found rather than listed: ``add_pages`` imports the ``page`` module of
every package here (which registers its routes) and adds them all to the app. Every route of the
table has its page (tests/unit/test_pages.py)."""

import importlib
import pkgutil

import reflex as rx

from portal.components import page as pages


def discover() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}.page")


def add_pages(app: rx.App) -> None:
    discover()
    pages.add_pages(app)
