"""Health, readiness, metrics and request ids (issue 17), over real HTTP on loopback.

The portal's health router and edge middleware serve here beside the embedded provider, which
takes its requests first, as ``portal/portal.py`` assembles them, under a real Uvicorn server
on a free port.
"""

import asyncio
import logging
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI

from portal import health
from portal.client import ProviderClient, ServerError
from portal.edge import EdgeMiddleware
from portal.logs import REQUEST_ID_HEADER, request_id_var
from portal.provider.main import ProviderMount, create_app
from portal.provider.platform.db import create_db_engine
from portal.provider_first import ProviderFirst
from portal.settings import get_settings
from tests.ports import free_port
from tests.provider.conftest import PASSWORD, World
from tests.provider.metric_values import sample


@pytest.fixture(scope="module")
def portal_url(engine: sa.Engine) -> Iterator[str]:
    port = free_port()
    backend = FastAPI()
    backend.include_router(health.router)
    backend.add_middleware(EdgeMiddleware)
    provider = create_app(engine)

    @provider.get("/api/test_failure")
    def failure() -> None:
        raise RuntimeError("boom at the provider")

    served = ProviderFirst(backend, ProviderMount("/provider", provider))
    server = uvicorn.Server(
        uvicorn.Config(served, host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield url
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def dependencies(engine: sa.Engine, portal_url: str) -> Iterator[None]:
    health.dependencies.engine = engine
    health.dependencies.provider_url = lambda: portal_url + "/provider"
    yield
    health.dependencies.engine = None
    health.dependencies.provider_url = None


@pytest.fixture
def settings_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    get_settings.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    get_settings.cache_clear()


def test_healthz_answers_with_the_instance_name(portal_url: str, settings_env) -> None:
    settings_env.setenv("INSTANCE_NAME", "portal-a")
    get_settings.cache_clear()
    response = httpx.get(portal_url + "/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "instance": "portal-a"}
    assert response.headers["Cache-Control"] == "no-store"


def test_readyz_checks_the_database_and_the_provider(portal_url: str, dependencies) -> None:
    # Every check answers within READINESS_TIMEOUT_SECONDS; httpx's own 5 s ran out once on a
    # machine busy enough to slow the test server itself.
    response = httpx.get(portal_url + "/readyz", timeout=30)
    assert response.status_code == 200, response.text
    expected = {"database": "ok", "provider": "ok"}
    if get_settings().redis_url:  # CI's PostgreSQL and Redis run
        expected["redis"] = "ok"
    assert response.json()["checks"] == expected


def test_readyz_names_each_failing_part_without_secrets(
    portal_url: str, settings_env, caplog: pytest.LogCaptureFixture
) -> None:
    dead_port = free_port()  # nobody listens there
    settings_env.setenv("REDIS_URL", f"redis://:redis-secret@127.0.0.1:{dead_port}/0")
    settings_env.setenv("READINESS_TIMEOUT_SECONDS", "1")
    get_settings.cache_clear()
    dead = create_db_engine(f"postgresql://patchbay:db-secret@127.0.0.1:{dead_port}/patchbay")
    health.dependencies.engine = dead
    health.dependencies.provider_url = lambda: f"http://127.0.0.1:{dead_port}/provider"
    try:
        started = time.monotonic()
        response = httpx.get(portal_url + "/readyz", timeout=10)
        took = time.monotonic() - started
    finally:
        health.dependencies.engine = None
        health.dependencies.provider_url = None
        dead.dispose()
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert set(body["checks"]) == {"database", "redis", "provider"}
    assert all(result != "ok" for result in body["checks"].values()), body
    assert body["checks"]["database"] == "error (OperationalError)"
    assert "secret" not in response.text
    assert str(dead_port) not in response.text
    assert took < 5  # the checks run side by side, each within the timeout


def test_a_request_id_is_made_at_the_edge_and_kept_when_a_proxy_sent_one(portal_url: str) -> None:
    made = httpx.get(portal_url + "/healthz").headers[REQUEST_ID_HEADER]
    assert len(made) == 16
    kept = httpx.get(portal_url + "/healthz", headers={REQUEST_ID_HEADER: "nginx-0123456789ab"})
    assert kept.headers[REQUEST_ID_HEADER] == "nginx-0123456789ab"
    forged = httpx.get(portal_url + "/healthz", headers={REQUEST_ID_HEADER: 'a b" {}'})
    assert len(forged.headers[REQUEST_ID_HEADER]) == 16


async def test_the_portal_sends_its_request_id_to_the_provider_and_shows_it_on_a_failure(
    portal_url: str, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with ProviderClient(portal_url + "/provider") as client:
        token = request_id_var.set("support-case-42a")
        try:
            await client.auth.login(world.email("alice"), PASSWORD)
            with pytest.raises(ServerError) as failure:
                await client.request("GET", "/api/test_failure")
        finally:
            request_id_var.reset(token)
    assert failure.value.request_id == "support-case-42a"
    # The provider logged the login and the failure under the portal's id, traceback included.
    # An access line is written when the request's last step is over, which may be after the
    # client has its answer (the session closes in the thread pool then): wait for both.
    deadline = time.monotonic() + 10
    while len(access := _access_lines(caplog, "support-case-42a")) < 2:
        assert time.monotonic() < deadline, access
        await asyncio.sleep(0.05)
    assert any(line.startswith("POST /login 204") for line in access), access
    assert any(line.startswith("GET /api/test_failure 500") for line in access), access
    ours = [r for r in caplog.records if getattr(r, "request_id", "") == "support-case-42a"]
    [error] = [r for r in ours if r.getMessage().startswith("Unhandled error")]
    assert error.exc_info is not None


def _access_lines(caplog: pytest.LogCaptureFixture, request_id: str) -> set[str]:
    return {
        record.getMessage()
        for record in caplog.records
        if record.name == "portal.provider.access"
        and getattr(record, "request_id", "") == request_id
    }


def test_a_network_failure_carries_the_request_id(caplog: pytest.LogCaptureFixture) -> None:
    async def call() -> str:
        async with ProviderClient(f"http://127.0.0.1:{free_port()}/provider") as client:
            try:
                await client.request("GET", "/api/users")
            except Exception as error:  # NetworkError
                return getattr(error, "request_id", "")
        return ""

    errors = sample("patchbay_provider_client_errors_total", kind="network")
    request_id = asyncio.run(call())
    assert len(request_id) == 16
    # Issue 17: the portal counts the calls that failed as it saw them.
    assert sample("patchbay_provider_client_errors_total", kind="network") == errors + 1


def test_metrics_count_provider_routes_logins_and_refusals(
    portal_url: str, world: World, settings_env
) -> None:
    with httpx.Client(base_url=portal_url + "/provider") as client:
        assert client.post("/login", json={"username": world.email("bob"), "password": PASSWORD})
        client.post("/login", json={"username": world.email("bob"), "password": "wrong"})
        client.get(f"/api/users/{world.users['bob']}")
        client.get("/api/services/00000000-0000-0000-0000-000000000000")
    text = httpx.get(portal_url + "/metrics").text
    assert 'patchbay_logins_total{outcome="success"}' in text
    assert 'patchbay_logins_total{outcome="failure"}' in text
    # By route template: never one series per user.
    assert 'route="/api/users/{user_id}",status="200"' in text
    # As the document names it, without the path's convertor (``{service_id:uuid}``).
    assert 'route="/api/services/{service_id}",status="404"' in text
    assert str(world.users["bob"]) not in text
    assert "patchbay_provider_request_duration_seconds_bucket" in text


def test_metrics_are_refused_through_a_proxy_and_need_the_token_once_set(
    portal_url: str, settings_env
) -> None:
    assert httpx.get(portal_url + "/metrics").status_code == 200  # loopback, no token set
    proxied = httpx.get(portal_url + "/metrics", headers={"X-Forwarded-For": "203.0.113.7"})
    assert proxied.status_code == 404
    settings_env.setenv("METRICS_TOKEN", "scrape-secret")
    get_settings.cache_clear()
    assert httpx.get(portal_url + "/metrics").status_code == 404
    wrong = {"Authorization": "Bearer nope"}
    assert httpx.get(portal_url + "/metrics", headers=wrong).status_code == 404
    right = {"Authorization": "Bearer scrape-secret", "X-Forwarded-For": "203.0.113.7"}
    assert httpx.get(portal_url + "/metrics", headers=right).status_code == 200
