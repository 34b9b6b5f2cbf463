"""Health and metrics endpoints on the portal's single production port.

``GET /healthz``: the process answers (the Dockerfile's HEALTHCHECK; a restart cures nothing
that this does not see), stopping or not. ``GET /readyz``: the database of the embedded provider,
Redis when configured and the provider API each answer within ``READINESS_TIMEOUT_SECONDS``;
otherwise 503 naming the failing part, with the kind of failure and never a URL or a credential.
From the moment the worker is told to stop, 503 ``{"status": "stopping"}`` at once, without
asking anything: the proxy takes the instance out while it still serves (``portal.drain``).
``GET /metrics``: Prometheus, for a scraper holding ``METRICS_TOKEN``, or without a token for a
direct client on the loopback address only (docs/decisions/operations-metrics.md).
"""

import asyncio
import hmac
import ipaddress
import logging
from collections.abc import Awaitable, Callable

import httpx
import redis.asyncio as redis_asyncio
import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from portal import drain, metrics
from portal.settings import get_settings

logger = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
METRICS_PATH = "/metrics"
_NO_STORE = {"Cache-Control": "no-store"}


class _Dependencies:
    """What readiness checks besides Redis: set by ``portal.portal`` as it builds the app."""

    engine: sa.Engine | None = None
    provider_url: Callable[[], str] | None = None


dependencies = _Dependencies()


@router.get(HEALTH_PATH)
async def healthz() -> JSONResponse:
    return JSONResponse(
        {"status": "ok", "instance": get_settings().effective_instance_name}, headers=_NO_STORE
    )


@router.get(READY_PATH)
async def readyz() -> JSONResponse:
    settings = get_settings()
    if drain.worker.stopping:
        return JSONResponse(
            {"status": "stopping", "instance": settings.effective_instance_name},
            status_code=503,
            headers=_NO_STORE,
        )
    checks: dict[str, Awaitable[None]] = {}
    if dependencies.engine is not None:
        checks["database"] = _check_database(dependencies.engine)
    if settings.redis_url:
        checks["redis"] = _check_redis()
    if dependencies.provider_url is not None:
        checks["provider"] = _check_provider(dependencies.provider_url())
    timeout = settings.readiness_timeout_seconds
    names = list(checks)
    outcomes = await asyncio.gather(
        *(asyncio.wait_for(checks[name], timeout) for name in names), return_exceptions=True
    )
    results = {name: _outcome(outcome) for name, outcome in zip(names, outcomes, strict=True)}
    ready = all(result == "ok" for result in results.values())
    if not ready:
        logger.warning("Not ready: %s", ", ".join(f"{k} {v}" for k, v in results.items()))
    return JSONResponse(
        {
            "status": "ready" if ready else "unavailable",
            "instance": settings.effective_instance_name,
            "checks": results,
        },
        status_code=200 if ready else 503,
        headers=_NO_STORE,
    )


def _outcome(outcome: BaseException | None) -> str:
    if outcome is None:
        return "ok"
    if isinstance(outcome, TimeoutError):
        return "timeout"
    # The exception's class only: its text may hold a host name, a user or a URL.
    return f"error ({type(outcome).__name__})"


async def _check_database(engine: sa.Engine) -> None:
    def ping() -> None:
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))

    await asyncio.to_thread(ping)


async def _check_redis() -> None:
    settings = get_settings()
    client = redis_asyncio.Redis.from_url(
        settings.redis_url,
        socket_timeout=settings.readiness_timeout_seconds,
        socket_connect_timeout=settings.readiness_timeout_seconds,
    )
    try:
        await client.ping()  # type: ignore[misc]
    finally:
        await client.aclose()


async def _check_provider(base_url: str) -> None:
    """Any answer below 500 from the provider API's login route is an answer."""
    timeout = get_settings().readiness_timeout_seconds
    async with httpx.AsyncClient(timeout=timeout) as client:
        response = await client.get(base_url + "/login")
    if response.status_code >= 500:
        raise ProviderUnavailableError(response.status_code)


class ProviderUnavailableError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"provider answered {status}")


@router.get(METRICS_PATH)
async def metrics_endpoint(request: Request) -> Response:
    if not _may_scrape(request):
        return Response(status_code=404, headers=_NO_STORE)
    body, content_type = await asyncio.to_thread(metrics.render)
    return Response(body, media_type=content_type, headers=_NO_STORE)


def _may_scrape(request: Request) -> bool:
    token = get_settings().metrics_token
    if token:
        sent = request.headers.get("authorization", "")
        return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())
    # No token: a scraper on the same host, talking to this port directly. A request that a
    # reverse proxy passed on carries X-Forwarded-For and is refused.
    if request.headers.get("x-forwarded-for") or request.client is None:
        return False
    try:
        return ipaddress.ip_address(request.client.host).is_loopback
    except ValueError:
        return False
