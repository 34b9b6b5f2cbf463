"""Builds the Reflex app: its pages, the portal's own routes and the embedded provider API."""

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import reflex as rx
from fastapi import FastAPI
from reflex.utils import prerequisites

from portal import health, metrics
from portal.connections import provider_base_url
from portal.drain import DrainMiddleware, ReflexEventWork
from portal.edge import EdgeMiddleware, ForwardedClient
from portal.event_failures import on_event_failure
from portal.feeds import router as feeds_router
from portal.forwarded import trusted_proxies
from portal.logs import configure_logging
from portal.pages import add_pages
from portal.private_files import make_private
from portal.provider import housekeeping
from portal.provider.main import ProviderMount, prepare_database
from portal.provider.main import create_app as create_provider_app
from portal.provider.monitoring import rollup
from portal.provider.platform import webhooks
from portal.provider.platform.limits import RequestLimits
from portal.provider.platform.mail.notices import send_due_notices
from portal.provider.platform.mail.outbox import run_delivery_loop
from portal.provider_first import PROVIDER_PREFIX, PortalApp
from portal.reconnect import keep_tokens_on_reconnect
from portal.settings import get_settings
from portal.sso_web import router as sso_router
from portal.state.session_binding import (
    SessionCookieBinding,
    UploadCookieCheck,
    cookie_proves_session,
)
from portal.unsubscribe import router as unsubscribe_router
from portal.web import router as portal_router
from portal.web_headers import PortalSecurityHeaders

settings = get_settings()
configure_logging(settings.effective_log_format, settings.log_level)

backend = FastAPI(
    openapi_url=None, docs_url=None, redoc_url=None, telemetry=metrics.FASTAPI_TELEMETRY
)
backend.include_router(health.router)
backend.include_router(portal_router)
backend.include_router(sso_router)
health.dependencies.provider_url = provider_base_url
backend.include_router(feeds_router)
backend.include_router(unsubscribe_router)

app = PortalApp(
    api_transformer=backend,
    stylesheets=["/styles.css"],
    # A plain script in the head runs before the app's first event (PreferencesState.time_zone).
    # focus-in-view.js keeps the focused control out from under the sticky navbar (issue 54).
    head_components=[
        rx.el.script(src="/time-zone.js"),
        rx.el.script(src="/focus-in-view.js", defer=True),
    ],
    html_lang="en",
    backend_exception_handler=on_event_failure,
)
# Whether a request's cookie is the portal session of the tab whose token it names.
proves_session = partial(cookie_proves_session, app)

backend.add_middleware(RequestLimits)
backend.add_middleware(UploadCookieCheck, proves=proves_session)
backend.add_middleware(
    PortalSecurityHeaders,
    public_url=settings.portal_public_url,
    hsts=not settings.is_development,
)
# The user's address behind the reverse proxy, before anything reads the request's client.
backend.add_middleware(ForwardedClient, trusted=trusted_proxies(tuple(settings.trusted_proxies)))
# A stopping worker closes its connections after each answer and sends new tabs elsewhere.
backend.add_middleware(DrainMiddleware)
# Outermost: the request id is known to every layer below, and every answer is counted.
backend.add_middleware(EdgeMiddleware)


@app.register_lifespan_task
def private_state_files() -> None:
    """The tabs' states hold session tokens: other local users must not read them."""
    make_private(prerequisites.get_states_dir().absolute())


# What a stopping worker waits for before it closes a tab (portal.drain, portal.serve).
tab_events = ReflexEventWork(app)


@app.register_lifespan_task
def count_tab_events() -> None:
    """Runs after Reflex's own lifespan task has started the worker's event processor."""
    tab_events.count_events()


# First of the event middlewares: no other sees an event of a state its cookie does not match.
app.add_middleware(SessionCookieBinding(), index=0)
add_pages(app)
keep_tokens_on_reconnect(app, proves_session)


@app.register_lifespan_task
@asynccontextmanager
async def forget_worker_metrics() -> AsyncIterator[None]:
    """A stopping worker's live gauges (its websocket clients) leave the instance's sum."""
    try:
        yield
    finally:
        metrics.worker_exited(os.getpid())


if not settings.provider_api_url:
    provider = create_provider_app()
    # Served before Reflex's stack and the backend's (portal.provider_first).
    app.provider_mount = ProviderMount(PROVIDER_PREFIX, provider)
    health.dependencies.engine = provider.state.engine

    @app.register_lifespan_task
    def prepare_provider_database() -> None:
        """Starlette runs no lifespan of a mounted app: migrate (and seed) here."""
        prepare_database(provider.state.engine)

    @app.register_lifespan_task
    async def provider_housekeeping() -> None:
        """The purge of expired rows, every HOUSEKEEPING_INTERVAL_MINUTES."""
        await housekeeping.run_periodically(provider.state.engine)

    @app.register_lifespan_task
    async def mail_delivery() -> None:
        """The outbox: mails leave, and are tried again after a failure, from here."""
        await run_delivery_loop(provider.state.engine, producers=(send_due_notices,))

    @app.register_lifespan_task
    async def webhook_delivery() -> None:
        """The webhook outbox: deliveries are tried again after a failure from here."""
        await webhooks.run_delivery_loop(provider.state.engine)

    @app.register_lifespan_task
    async def roll_up_sensor_samples() -> None:
        """The sensor roll-up job, every SENSOR_ROLLUP_MINUTES (docs/decisions/sensor-rollups)."""
        await rollup.run_periodically(provider.state.engine)
