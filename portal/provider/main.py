"""The embedded provider API as a FastAPI application, mounted by the portal at ``/provider``.

Starlette does not run the lifespan of a mounted application: whoever mounts the provider calls
``prepare_database()`` from its own start-up (the portal registers it as a lifespan task); run on
its own (``uvicorn --factory portal.provider.main:create_app``) the lifespan below does it. It is
mounted with ``ProviderMount``, which hands it every path under its prefix.
"""

import asyncio
import gc
import importlib
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.datastructures import Default
from sqlalchemy import Engine
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.routing import Mount
from starlette.types import ASGIApp

from portal import metrics
from portal.provider.docs_page import OPENAPI_PATH
from portal.provider.docs_page import router as docs_router
from portal.provider.migrate import migrate
from portal.provider.monitoring.rollup import run_periodically
from portal.provider.platform.db import create_db_engine, read_engine
from portal.provider.platform.errors import install_error_handlers
from portal.provider.platform.input_check import refuse_control_characters
from portal.provider.platform.limits import RequestLimits
from portal.provider.platform.loop_reads import LoopReads
from portal.provider.platform.observability import ProviderRequestMiddleware
from portal.provider.platform.openapi import DocumentedApi
from portal.provider.platform.origin_check import refuse_foreign_writes
from portal.provider.platform.responses import JsonLdResponse
from portal.provider.platform.routing import guard_included_routers
from portal.provider.routers import ROUTERS
from portal.provider.startup import startup_lock
from portal.provider.webhook_events import register_renderers
from portal.settings import get_settings

logger = logging.getLogger(__name__)

DESCRIPTION = """Every error is `application/ld+json`: `@type`, `title`, `detail`, `status`, and
`violations` on a 422 (the `Error` and `InvalidData` schemas). Each operation lists the statuses
it answers (`portal/provider/platform/openapi.py`); besides them, any request may get a 405 with
`Allow` (a method the path does not answer), a 414 (query string too long), a 431 (headers too
large) and a 503 with `Retry-After` (the database is unavailable)."""


def prepare_database(engine: Engine) -> None:
    """Migrate to the newest schema, then seed the demo data into an empty database unless
    this is production or seeding is switched off; one process at a time (``startup_lock``)."""
    with startup_lock(engine):
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
    rollups = asyncio.create_task(run_periodically(app.state.engine))
    # Reflex's production runner freezes the portal's heap before it forks its workers; alone,
    # the provider does it once started, so that no full collection walks the start-up's
    # objects again (docs/decisions/frozen-start-up-heap.md).
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        rollups.cancel()


def create_app(engine: Engine | None = None) -> FastAPI:
    """The provider application on ``engine`` (the settings' database by default)."""
    settings = get_settings()
    register_renderers()
    app = DocumentedApi(
        title="Patchbay provider API",
        summary="Reference implementation of the provider API the portal relies on.",
        description=DESCRIPTION,
        version="1",
        lifespan=lifespan,
        # Served by ``docs_page`` from the project's own copy of Swagger UI.
        docs_url=None,
        redoc_url=None,
        openapi_url=OPENAPI_PATH,
        # As a default, not a choice: FastAPI then writes response models straight to JSON
        # bytes with pydantic-core instead of a dict through json.dumps (a third of a long
        # list's time); ProviderRequestMiddleware names the media type JSON-LD.
        default_response_class=Default(JsonLdResponse),
        dependencies=[Depends(refuse_foreign_writes), Depends(refuse_control_characters)],
        telemetry=metrics.FASTAPI_TELEMETRY,
    )
    app.state.engine = engine or create_db_engine()
    app.state.read_engine = read_engine(app.state.engine)
    app.state.loop_reads = (
        LoopReads(app.state.engine, settings.database_loop_pool_size)
        if app.state.engine.dialect.name == "postgresql"
        else None
    )
    install_error_handlers(app)
    # Inside the request middleware: its refusals get the request id and security headers too.
    app.add_middleware(RequestLimits)
    # Outermost: the request id is known to every layer below, every answer gets the security
    # headers, and every answer is counted.
    app.add_middleware(ProviderRequestMiddleware, hsts=not settings.is_development)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(docs_router)
    guard_included_routers(app)
    return app


class ProviderMount(Mount):
    """The provider under a prefix of a parent application (``parent.router.routes.append(
    ProviderMount("/provider", create_app()))``). Starlette's ``Mount`` matches the rest of the
    path with ``.*``, which stops at a line break: a path holding one (``…/api/users/%0A``,
    found by schemathesis, issue 18, item 9) missed the provider and got the parent's own 404,
    in the parent's format. This one matches every character, so the provider answers."""

    def __init__(self, path: str, app: ASGIApp) -> None:
        super().__init__(path, app=app)
        self.path_regex = re.compile(self.path_regex.pattern, re.DOTALL)
