"""A tab that reconnects keeps its token, whichever worker or instance it reaches (issue 17).

Reflex links each websocket's client token to its socket in Redis, to tell a duplicated browser
tab (which copies the token with its session storage) from the tab it copies: a connection whose
token Redis still links to a socket gets a new token, so a new, empty state. When an instance
stops, its tabs reconnect to another one at once, often before the stopping instance has
unlinked their tokens, and never if it was killed: about one failover in six then looked like a
duplicate, and the tab lost its state (a form being typed in, the page's data), the user staying
logged in only thanks to the session cookie (docs/decisions/reconnecting-tabs.md).

The browser says which case it is. The boot event of a page's first connection carries the
hashes of its compiled defaults; a reconnect's does not. A reconnect takes its token back, as
Reflex itself lets a newer link win, only when its handshake's cookie is the portal session the
token's state holds: the token is no credential, and whoever took a live tab's token over
received every update of that tab while the tab went quiet (issue 47, item 11). Any other
connection keeps Reflex's duplicate check, so a duplicated tab, or a stranger with the token,
gets a new token and an empty state.
"""

import contextvars
from collections.abc import Awaitable, Callable
from typing import Any, Protocol
from urllib.parse import parse_qs

from redis.exceptions import RedisError
from reflex.utils.token_manager import RedisTokenManager, SocketRecord
from reflex_base.constants import CompileVars

_reconnecting = contextvars.ContextVar("reconnecting", default=False)


def is_reconnect(auth: Any) -> bool:
    """Whether a Socket.IO CONNECT's payload is that of a page reconnecting."""
    if not isinstance(auth, dict):
        return False
    boot_event = auth.get(CompileVars.CONNECT_AUTH_EVENT)
    if not isinstance(boot_event, dict):
        return False
    payload = boot_event.get("payload")
    return isinstance(payload, dict) and "hashes" not in payload


class ReconnectingTokenManager(RedisTokenManager):
    async def link_token_to_sid(self, token: str, sid: str) -> str | None:
        if not _reconnecting.get():
            return await super().link_token_to_sid(token, sid)
        # The record of the tab's previous socket is stale: this socket replaces it. Other
        # instances learn it from the key's "set" notification, as for any newer link.
        self._ensure_socket_record_task()
        record = self.token_to_socket[token] = SocketRecord(instance_id=self.instance_id, sid=sid)
        self.sid_to_token[sid] = token
        await self._store_socket_record(token, record)
        return None


class _AppWithEvents(Protocol):
    @property
    def event_namespace(self) -> Any: ...


def keep_tokens_on_reconnect(
    app: _AppWithEvents, proves_session: Callable[[str, str], Awaitable[bool]]
) -> None:
    """Installs the above on the app's event namespace, when Reflex keeps its tokens in Redis.
    ``proves_session(token, cookie_header)``: whether a handshake's cookies carry the portal
    session the token's state holds (``session_binding.cookie_proves_session``)."""
    namespace = app.event_namespace
    if namespace is None or not isinstance(namespace._token_manager, RedisTokenManager):
        return
    namespace._token_manager = ReconnectingTokenManager(namespace._token_manager.redis)
    connect = namespace.on_connect

    async def reclaims(environ: dict, auth: Any) -> bool:
        if not is_reconnect(auth):
            return False
        token = parse_qs(environ.get("QUERY_STRING", "")).get("token", [""])[0]
        try:
            return await proves_session(token, environ.get("HTTP_COOKIE", ""))
        except RedisError:
            # Redis is down: nothing is proven, and Reflex's own link keeps the token on this
            # worker until it is back; the tab's first event tells the user of the outage.
            return False

    async def on_connect(sid: str, environ: dict, auth: Any = None) -> None:
        marked = _reconnecting.set(await reclaims(environ, auth))
        try:
            await connect(sid, environ, auth)
        finally:
            _reconnecting.reset(marked)

    # python-socketio looks the handler up on the namespace object, where an instance
    # attribute comes before the class's method.
    namespace.__dict__["on_connect"] = on_connect
