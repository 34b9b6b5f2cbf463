"""Builds the Reflex app: its pages, the portal's own routes and the embedded provider API."""

import reflex as rx
from fastapi import FastAPI

from portal.pages import add_pages
from portal.provider.main import create_app as create_provider_app
from portal.provider.main import prepare_database
from portal.settings import get_settings
from portal.web import router as portal_router

backend = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
backend.include_router(portal_router)

app = rx.App(api_transformer=backend, stylesheets=["/styles.css"], html_lang="en")
add_pages(app)

if not get_settings().provider_api_url:
    provider = create_provider_app()
    backend.mount("/provider", provider)

    @app.register_lifespan_task
    def prepare_provider_database() -> None:
        """Starlette runs no lifespan of a mounted app: migrate (and seed) here."""
        prepare_database(provider.state.engine)
