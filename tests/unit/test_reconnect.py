"""A tab that reconnects keeps its token (portal.reconnect), on a Redis server of the test's
own; a page's first connection with a linked token still gets a new one (a duplicated tab)."""

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from redis import asyncio as redis_asyncio
from reflex.utils.token_manager import RedisTokenManager

from portal.reconnect import is_reconnect, keep_tokens_on_reconnect
from tests.redis_server import RedisServer

FIRST = {"event": {"name": "state.hydrate_and_load", "payload": {"vars": {}, "hashes": {}}}}
AGAIN = {"event": {"name": "state.hydrate_and_load", "payload": {"vars": {}}}}


def test_a_reconnect_is_told_from_a_first_connection() -> None:
    assert is_reconnect(AGAIN)
    assert not is_reconnect(FIRST)
    assert not is_reconnect(None)
    assert not is_reconnect({"event": "not an event"})


class _Namespace:
    """What keep_tokens_on_reconnect needs of Reflex's event namespace."""

    def __init__(self, manager: RedisTokenManager) -> None:
        self._token_manager = manager
        self.linked: dict[str, str | None] = {}

    async def on_connect(self, sid: str, environ: dict, auth: Any = None) -> None:
        token = environ["token"]
        self.linked[sid] = await self._token_manager.link_token_to_sid(token, sid)


class _App:
    def __init__(self, namespace: _Namespace) -> None:
        self.event_namespace = namespace


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@asynccontextmanager
async def _instances(server: RedisServer) -> AsyncIterator[tuple[_Namespace, _Namespace]]:
    """Two instances' namespaces on one Redis, as two portals behind a proxy."""
    clients = [redis_asyncio.from_url(server.url) for _ in range(2)]
    namespaces = []
    for client in clients:
        namespace = _Namespace(RedisTokenManager(client))
        keep_tokens_on_reconnect(_App(namespace))
        namespaces.append(namespace)
    try:
        yield namespaces[0], namespaces[1]
    finally:
        for namespace in namespaces:
            task = namespace._token_manager._socket_record_task
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        for client in clients:
            await client.aclose()


async def test_a_tab_reconnecting_to_another_instance_keeps_its_token(
    redis_server: RedisServer,
) -> None:
    async with _instances(redis_server) as (stopping, other):
        await _reconnect_elsewhere(stopping, other)


async def _reconnect_elsewhere(stopping: _Namespace, other: _Namespace) -> None:
    await stopping.on_connect("sid-1", {"token": "tab-token"}, FIRST)
    assert stopping.linked["sid-1"] is None
    # The first instance stops without unlinking the token; the tab reconnects to the other.
    await other.on_connect("sid-2", {"token": "tab-token"}, AGAIN)
    assert other.linked["sid-2"] is None
    record = await other._token_manager._get_token_owner("tab-token", refresh=True)
    assert record == other._token_manager.instance_id


async def test_a_duplicated_tab_still_gets_a_token_of_its_own(redis_server: RedisServer) -> None:
    async with _instances(redis_server) as (first, second):
        await first.on_connect("sid-1", {"token": "copied-token"}, FIRST)
        await second.on_connect("sid-2", {"token": "copied-token"}, FIRST)
    new_token = second.linked["sid-2"]
    assert new_token is not None
    assert new_token != "copied-token"
