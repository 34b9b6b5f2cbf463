"""The backend's long-lived connections: the portal session store and the provider clients.

One provider client per portal session (spec: the user's provider cookie jar stays on the
server), cached per process; all of a process's clients share one connection pool
(``SharedTransport``), so a session costs its cookies, not sockets and a TLS context. A client
leaves the cache when it is the least recently used past ``_MAX_CACHED_CLIENTS`` or its session
ends; the pool stays, and a download in progress finishes. Each caller (a tab, a download)
gets a view of its session's client with its own language and address.
"""

import asyncio
import logging
import weakref
from collections import OrderedDict
from functools import cache
from urllib.parse import urlencode

import httpx
from reflex.config import get_config
from reflex.constants import Env
from reflex.environment import environment

from portal.client import ProviderClient
from portal.client.base import SharedTransport
from portal.session_store import PortalSession, SessionStore
from portal.settings import get_settings

logger = logging.getLogger(__name__)

_MAX_CACHED_CLIENTS = 2048
# The shared pool: enough connections for a worker's concurrent calls, kept open for the next.
_POOL_LIMITS = httpx.Limits(max_connections=100, max_keepalive_connections=32)
# One pool per event loop: a pool's connections belong to the loop that opened them.
_transports: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SharedTransport]" = (
    weakref.WeakKeyDictionary()
)
_clients: OrderedDict[str, ProviderClient] = OrderedDict()
# Closings under way, held so the event loop does not drop the tasks before they finish.
_closings: set[asyncio.Task[None]] = set()


@cache
def session_store() -> SessionStore:
    return SessionStore(get_settings())


def provider_base_url() -> str:
    """The configured provider API, or the embedded one served by this very backend."""
    configured = get_settings().provider_api_url
    if configured:
        return configured.rstrip("/")
    return f"http://127.0.0.1:{get_config().backend_port}/provider"


def _split_ports() -> bool:
    """In development the front end and the backend answer on two ports; in production on one."""
    return environment.REFLEX_ENV_MODE.get() == Env.DEV


def backend_url(path: str, **query: str) -> str:
    """A URL of the backend's own HTTP routes, as the browser must request it."""
    suffix = path + ("?" + urlencode(query) if query else "")
    return get_config().api_url.rstrip("/") + suffix if _split_ports() else suffix


def frontend_url(path: str) -> str:
    """A page URL as the backend must redirect the browser to it."""
    return (get_config().deploy_url or "").rstrip("/") + path if _split_ports() else path


def shared_transport() -> SharedTransport | None:
    """This event loop's pool of provider connections; None outside a loop (the client then
    opens its own)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    transport = _transports.get(loop)
    if transport is None:
        transport = _transports[loop] = SharedTransport(
            httpx.AsyncHTTPTransport(limits=_POOL_LIMITS)
        )
    return transport


def anonymous_client(
    language: str, forwarded_for: str = "", cookies: dict[str, str] | None = None
) -> ProviderClient:
    """A client without a session, for login (``cookies``: a remembered device's, a pending
    login's); the caller closes it."""
    return ProviderClient(
        provider_base_url(),
        language=language,
        cookies=cookies,
        forwarded_for=forwarded_for or None,
        transport=shared_transport(),
    )


def session_client(
    token: str, session: PortalSession, language: str, forwarded_for: str = ""
) -> ProviderClient:
    """The provider client of a portal session (created on first use), as this caller speaks
    to it: the tabs of one session share its cookies and connections, and each call sends its
    own tab's language and address, whatever another tab asked for meanwhile."""
    client = _clients.get(token)
    if client is None:
        client = ProviderClient(
            provider_base_url(),
            cookies=session.provider_cookies,
            transport=shared_transport(),
        )
        _clients[token] = client
        while len(_clients) > _MAX_CACHED_CLIENTS:
            _retire(_clients.popitem(last=False)[1])
    else:
        _clients.move_to_end(token)
        if client.cookies() != session.provider_cookies:
            # Another worker rotated the provider session (impersonation) and stored the new
            # cookie: this process's client must not keep sending the closed session's.
            client.use_cookies(session.provider_cookies)
    return client.for_caller(language, forwarded_for or None)


async def forget_client(token: str) -> None:
    """Drops the client of an ended session and closes its connections."""
    client = _clients.pop(token, None)
    if client is not None:
        await client.close(when_idle=True)


def _retire(client: ProviderClient) -> None:
    """Closes an evicted client's connections without making its caller wait."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no event loop in this thread: nothing can be in flight either
        try:
            asyncio.run(client.close())
        except Exception:
            logger.warning("Closing an evicted provider client failed", exc_info=True)
        return
    task = loop.create_task(client.close(when_idle=True))
    _closings.add(task)
    task.add_done_callback(_closed)


def _closed(task: asyncio.Task[None]) -> None:
    _closings.discard(task)
    if not task.cancelled() and task.exception() is not None:
        logger.warning("Closing an evicted provider client failed", exc_info=task.exception())


async def closings_done() -> None:
    """Waits for the evicted clients' closings under way (tests, shutdown)."""
    while _closings:
        await asyncio.gather(*_closings, return_exceptions=True)
