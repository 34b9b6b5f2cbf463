"""Prometheus metrics of the portal and the embedded provider (prometheus-client).

Several Granian workers serve one port: each writes its samples to files in
``PROMETHEUS_MULTIPROC_DIR`` (the library's multi-process mode) and ``/metrics`` merges the
files of every worker, so a scrape sees the whole instance whichever worker answers. The
directory must be set before ``prometheus_client`` is imported and must be fresh at each start:
``portal.metrics_dir.ensure_multiprocess_dir()`` (called from ``rxconfig.py``, in the process
that starts the workers, before anything imports this module) makes a new one unless the
operator named one. Without it (tests, a lone provider
under Uvicorn) the library's ordinary single-process registry is used.

Neither this module nor its callers in ``portal.provider`` import Reflex.
"""

import os
import re

from fastapi.telemetry import TelemetryConfig
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from portal.metrics_dir import MULTIPROC_ENV

# FastAPI's own OpenTelemetry hooks, off: the portal exports these Prometheus metrics and no
# OpenTelemetry. Left on, each FastAPI application asks OpenTelemetry's global providers on every
# request whether one is configured (20 µs each; a provider request crosses two applications).
FASTAPI_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}

# What prometheus-client chose when it was imported (just above): a directory named later, in
# this process, changes nothing about where the samples went.
MULTIPROCESS = bool(os.environ.get(MULTIPROC_ENV))

_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
_SIZE_BUCKETS = (1e3, 1e4, 1e5, 1e6, 5e6, 1e7, 5e7, 1e8, 1e9)

PROVIDER_REQUESTS = Counter(
    "patchbay_provider_requests_total",
    "Requests answered by the embedded provider API, by route template and status.",
    ["method", "route", "status"],
)
PROVIDER_LATENCY = Histogram(
    "patchbay_provider_request_duration_seconds",
    "Time the embedded provider API took to answer, by route template and status.",
    ["method", "route", "status"],
    buckets=_LATENCY_BUCKETS,
)
CLIENT_CALL_LATENCY = Histogram(
    "patchbay_provider_client_call_duration_seconds",
    "Provider API calls as the portal sees them, by outcome (2xx … 5xx, network, timeout).",
    ["method", "outcome"],
    buckets=_LATENCY_BUCKETS,
)
CLIENT_CALL_ERRORS = Counter(
    "patchbay_provider_client_errors_total",
    "Provider API calls of the portal that failed: 5xx, network, timeout.",
    ["kind"],
)
WEBSOCKET_CLIENTS = Gauge(
    "patchbay_websocket_clients",
    "Browser tabs connected to the portal's event websocket.",
    multiprocess_mode="livesum",
)
LOGINS = Counter(
    "patchbay_logins_total", "Login attempts at the provider, by outcome.", ["outcome"]
)
RATE_LIMIT_REFUSALS = Counter(
    "patchbay_rate_limit_refusals_total",
    "Requests refused with 429 by a rate limit, by route template.",
    ["route"],
)
API_TOKEN_REQUESTS = Counter(
    "patchbay_api_token_requests_total",
    "Requests made with an API token, by kind of token (integration, personal; invalid when "
    "the bearer token opened nothing), route template and status.",
    ["kind", "route", "status"],
)
MAILS = Counter(
    "patchbay_mails_total",
    "Mail delivery attempts of the outbox: sent, failed (will be retried), given_up.",
    ["outcome"],
)
MAIL_OUTBOX_PENDING = Gauge(
    "patchbay_mail_outbox_pending",
    "Mails waiting in the outbox, as last seen by a worker's delivery loop.",
    multiprocess_mode="max",
)
IMPORT_BYTES = Histogram(
    "patchbay_import_bytes",
    "Size of the files and batches imported into the provider, by route template.",
    ["route"],
    buckets=_SIZE_BUCKETS,
)
EXPORT_BYTES = Histogram(
    "patchbay_export_bytes",
    "Size of the exports the provider streamed, by route template.",
    ["route"],
    buckets=_SIZE_BUCKETS,
)

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def render() -> tuple[bytes, str]:
    """The exposition of every metric: all workers' in multi-process mode."""
    if MULTIPROCESS:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    from prometheus_client import REGISTRY

    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def worker_exited(pid: int) -> None:
    """Drops the live gauges of a worker that stopped (its websocket clients left with it)."""
    if MULTIPROCESS:
        multiprocess.mark_process_dead(pid)


def call_outcome(status: int) -> str:
    return f"{status // 100}xx"


def is_import(method: str, route: str) -> bool:
    return method in {"POST", "PUT"} and (
        "/import" in route or route.startswith("/api/integration")
    )


def is_export(method: str, route: str) -> bool:
    return method == "GET" and route.endswith("/export")


def without_ids(path: str) -> str:
    """A path with its uuids as ``{id}``, so a label never holds one per object."""
    return _UUID.sub("{id}", path)
