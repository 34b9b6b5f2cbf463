"""A tab that reconnects keeps its token (portal.reconnect), on a Redis server of the test's
own, when its cookie is the portal session its state holds; a page's first connection with a
linked token still gets a new one (a duplicated tab), and so does a reconnect without that
cookie (issue 47, item 11: the token alone took a live tab over)."""

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from redis import asyncio as redis_asyncio
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken
from reflex.utils.token_manager import RedisTokenManager

from portal.reconnect import is_reconnect, keep_tokens_on_reconnect
from portal.session_store import COOKIE_NAME
from portal.state.session import SessionState
from portal.state.session_binding import cookie_proves_session, held_session
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
        token = parse_qs(environ["QUERY_STRING"])["token"][0]
        self.linked[sid] = await self._token_manager.link_token_to_sid(token, sid)


class _App:
    """An instance: its event namespace, and the Redis state manager the tabs' states are in."""

    def __init__(self, namespace: _Namespace, state_manager: StateManagerRedis) -> None:
        self.event_namespace = namespace
        self._state_manager = state_manager

    @property
    def state_manager(self) -> StateManagerRedis:
        return self._state_manager


def _handshake(token: str, session: str = "") -> dict[str, str]:
    """The environ of a websocket handshake for ``token``, with the session cookie if any."""
    environ = {"QUERY_STRING": f"EIO=4&transport=websocket&token={token}"}
    if session:
        environ["HTTP_COOKIE"] = f"theme=dark; {COOKIE_NAME}={session}"
    return environ


async def _hold_session(server: RedisServer, token: str, session: str) -> None:
    """What a worker writes after the login event of the tab of ``token``: its SessionState,
    which holds the portal session."""
    state = SessionState(_reflex_internal_init=True, init_substates=False)
    state._token = session
    client = redis_asyncio.from_url(server.url)
    try:
        await client.set(str(BaseStateToken(ident=token, cls=SessionState)), state._serialize())
    finally:
        await client.aclose()


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
    managers = [StateManagerRedis(redis=client) for client in clients]
    namespaces = []
    for client, manager in zip(clients, managers, strict=True):
        namespace = _Namespace(RedisTokenManager(client))
        app = _App(namespace, manager)

        async def proves(token: str, cookie: str, app: _App = app) -> bool:
            return await cookie_proves_session(app, token, cookie)

        keep_tokens_on_reconnect(app, proves)
        namespaces.append(namespace)
    try:
        yield namespaces[0], namespaces[1]
    finally:
        for namespace in namespaces:
            task = namespace._token_manager._socket_record_task
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        for manager in managers:
            await manager.close()


async def test_a_tab_reconnecting_to_another_instance_keeps_its_token(
    redis_server: RedisServer,
) -> None:
    await _hold_session(redis_server, "tab-token", "alices-session")
    async with _instances(redis_server) as (stopping, other):
        await stopping.on_connect("sid-1", _handshake("tab-token", "alices-session"), FIRST)
        assert stopping.linked["sid-1"] is None
        # The first instance stops without unlinking the token; the tab reconnects to the
        # other, with the browser's cookie.
        await other.on_connect("sid-2", _handshake("tab-token", "alices-session"), AGAIN)
        assert other.linked["sid-2"] is None
        record = await other._token_manager._get_token_owner("tab-token", refresh=True)
        assert record == other._token_manager.instance_id


@pytest.mark.parametrize("cookie", ["", "mallorys-own-session"])
async def test_a_reconnect_without_the_tabs_session_cannot_take_its_token(
    redis_server: RedisServer, cookie: str
) -> None:
    """Someone who holds a live tab's token forges a reconnect, without the tab's cookie (or
    with a session of their own): they get a token of their own, and the tab keeps its socket."""
    await _hold_session(redis_server, "tab-token", "alices-session")
    async with _instances(redis_server) as (tab, other):
        await tab.on_connect("sid-1", _handshake("tab-token", "alices-session"), FIRST)
        await other.on_connect("sid-2", _handshake("tab-token", cookie), AGAIN)
        assert other.linked["sid-2"] not in (None, "tab-token")
        record = await other._token_manager._get_token_owner("tab-token", refresh=True)
        assert record == tab._token_manager.instance_id


async def test_a_signed_out_tabs_token_is_not_taken_back(redis_server: RedisServer) -> None:
    """A signed-out tab holds no session to prove: its login form, and the claim ticket of a
    login under way, are no one else's either."""
    await _hold_session(redis_server, "tab-token", "")
    async with _instances(redis_server) as (tab, other):
        await tab.on_connect("sid-1", _handshake("tab-token"), FIRST)
        await other.on_connect("sid-2", _handshake("tab-token"), AGAIN)
        assert other.linked["sid-2"] not in (None, "tab-token")


async def test_a_reconnect_while_redis_is_down_connects_with_its_token(
    redis_server: RedisServer,
) -> None:
    """The session cannot be read: the tab connects as Reflex links it without Redis (its own
    token, on this worker), and its first event tells the user of the outage."""
    await _hold_session(redis_server, "tab-token", "alices-session")
    async with _instances(redis_server) as (tab, other):
        await tab.on_connect("sid-1", _handshake("tab-token", "alices-session"), FIRST)
        redis_server.stop()
        try:
            await other.on_connect("sid-2", _handshake("tab-token", "alices-session"), AGAIN)
        finally:
            redis_server.start()
        assert other.linked["sid-2"] is None


async def test_the_held_session_is_read_from_the_session_record_alone(
    redis_server: RedisServer,
) -> None:
    await _hold_session(redis_server, "tab-token", "alices-session")
    async with _instances(redis_server) as (tab, _other):
        app = _App(tab, StateManagerRedis(redis=redis_asyncio.from_url(redis_server.url)))
        try:
            assert await held_session(app, "tab-token") == "alices-session"
            assert await held_session(app, "unknown-token") == ""
        finally:
            await app.state_manager.close()


async def test_a_duplicated_tab_still_gets_a_token_of_its_own(redis_server: RedisServer) -> None:
    await _hold_session(redis_server, "copied-token", "alices-session")
    async with _instances(redis_server) as (first, second):
        await first.on_connect("sid-1", _handshake("copied-token", "alices-session"), FIRST)
        await second.on_connect("sid-2", _handshake("copied-token", "alices-session"), FIRST)
    new_token = second.linked["sid-2"]
    assert new_token is not None
    assert new_token != "copied-token"
