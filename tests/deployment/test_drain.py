"""Issue 56, item 1: an instance stopped with SIGTERM under load, behind deploy/nginx.conf, fails
no request and loses no form submission (docs/decisions/graceful-drain.md).

Two production servers (two workers each) share a scratch PostgreSQL database and a Redis of the
test's own behind Debian's nginx. HTTP clients read and write through the proxy, tabs submit a
form over the websocket (``tests/deployment/load.py``). One instance gets SIGTERM: its
``/readyz`` answers 503 at once while it keeps serving for the drain period, then it accepts
nothing new, lets what it holds finish, closes its tabs (which reconnect to the other instance)
and exits 0. CI runs this module in the deployment step."""

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.deployment.cluster import (
    Instance,
    Proxy,
    can_run,
    instance_env,
    scratch_database,
    seed_demo,
)
from tests.deployment.load import Load, audited_changes, services
from tests.ports import free_port
from tests.redis_server import RedisServer

pytestmark = pytest.mark.skipif(
    not can_run(), reason="needs DATABASE_URL on PostgreSQL and Debian's nginx (ensure-nginx.sh)"
)

HTTP_CLIENTS = 4
TABS = 6
DRAIN_SECONDS = 3
# Drain, then the grace period at most, then the process's own exit.
EXIT_SECONDS = DRAIN_SECONDS + 30 + 15


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[Proxy, dict[str, Instance], str]]:
    redis_server = RedisServer(tmp_path)
    with scratch_database("drain") as database_url:
        redis_server.start()
        instances = {
            name: Instance(name, free_port(), {}, tmp_path / f"{name}.log")
            for name in ("portal-a", "portal-b")
        }
        proxy = Proxy(tmp_path, list(instances.values()))
        env = instance_env(tmp_path, database_url, redis_server.url, proxy.url)
        try:
            seed_demo(env)
            for instance in instances.values():
                instance.env = env
                instance.start()
            for instance in instances.values():
                instance.wait_ready()
            proxy.start()
            yield proxy, instances, database_url
        finally:
            proxy.stop()
            for instance in instances.values():
                instance.kill()
            redis_server.stop()


def test_an_instance_stopped_under_load_fails_no_request_and_loses_no_submission(
    deployment: tuple[Proxy, dict[str, Instance], str],
) -> None:
    proxy, instances, database_url = deployment
    stopping = instances["portal-a"]
    chosen = asyncio.run(services(proxy.url, HTTP_CLIENTS + TABS))
    # Besides, a client that is not Reflex's page, connected to the stopping instance itself: it
    # never reconnects when asked, and is closed by the instance instead.
    with Load(proxy.url, chosen[:HTTP_CLIENTS], chosen[HTTP_CLIENTS:], stopping.url) as load:
        load.wait_until(
            lambda seen: (
                seen.served_by(0)["portal-a"] > 20
                and sum(seen.stored.values()) > 40
                and seen.deaf_client == "connected"
            ),
            60,
            "answers from portal-a, stored changes and the deaf client",
        )
        signalled = time.monotonic()
        stopping.terminate()
        ready = httpx.get(f"{stopping.url}/readyz", timeout=5)
        answered_in = time.monotonic() - signalled
        exit_code = stopping.wait_exit(EXIT_SECONDS)
        stopped = time.monotonic()
        load.wait_until(
            lambda seen: seen.served_by(stopped)["portal-b"] > 50, 60, "portal-b serving alone"
        )
        outcome = load.stop()

    assert exit_code == 0, stopping.log_tail()
    assert ready.status_code == 503
    assert ready.json()["status"] == "stopping"
    assert answered_in < DRAIN_SECONDS
    # It served on through the drain period, then the other instance took everything.
    assert outcome.served_by(signalled, signalled + DRAIN_SECONDS)["portal-a"] > 0
    assert outcome.served_by(stopped)["portal-a"] == 0
    assert outcome.failures == [], f"{len(outcome.failures)} failed: {outcome.failures[:10]}"
    assert outcome.lost == []
    # Tabs of the stopped instance did reconnect (to the other one) and went on submitting.
    assert outcome.reconnects > 0
    assert outcome.deaf_client == "asked, then closed by the instance"
    # Each answered change is stored once, and nothing else is.
    assert audited_changes(database_url) == outcome.stored
