"""The embedded provider API as a FastAPI application, mounted by the portal at ``/provider``.

Starlette does not run the lifespan of a mounted application: whoever mounts the provider calls
``prepare_database()`` from its own start-up (the portal registers it as a lifespan task); run on
its own (``uvicorn --factory portal.provider.main:create_app``) the lifespan below does it.
"""

import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from portal.provider.db import create_db_engine
from portal.provider.errors import install_error_handlers
from portal.provider.headers import SecurityHeadersMiddleware
from portal.provider.migrate import migrate
from portal.provider.responses import JsonLdResponse
from portal.provider.routes import ROUTERS
from portal.settings import get_settings

logger = logging.getLogger(__name__)


def prepare_database(engine: Engine) -> None:
    """Migrate to the newest schema, then seed the demo data into an empty database unless
    this is production or seeding is switched off."""
    migrate(engine)
    settings = get_settings()
    if settings.environment == "production" or not settings.seed_demo:
        return
    try:
        seed = importlib.import_module("portal.provider.seed")
    except ModuleNotFoundError as error:
        if error.name != "portal.provider.seed":
            raise
        return
    with Session(engine) as session:
        if seed.seed_if_empty(session):
            session.commit()
            logger.info("Seeded the demo data")


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    await run_in_threadpool(prepare_database, app.state.engine)
    yield


def create_app(engine: Engine | None = None) -> FastAPI:
    """The provider application on ``engine`` (the settings' database by default)."""
    settings = get_settings()
    app = FastAPI(
        title="Patchbay provider API",
        summary="Reference implementation of the provider API the portal relies on.",
        version="1",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
        openapi_url="/openapi.json",
        default_response_class=JsonLdResponse,
    )
    app.state.engine = engine or create_db_engine()
    install_error_handlers(app)
    app.add_middleware(SecurityHeadersMiddleware, hsts=not settings.is_development)
    for router in ROUTERS:
        app.include_router(router)
    return app
