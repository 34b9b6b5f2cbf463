"""The backend's long-lived connections: the portal session store and the provider clients.

One provider client per portal session (spec: the user's provider cookie jar stays on the
server), cached per process so connections are reused across a user's events.
"""

from collections import OrderedDict
from functools import cache
from urllib.parse import urlencode

from reflex.config import get_config
from reflex.constants import Env
from reflex.environment import environment

from portal.client import ProviderClient
from portal.session_store import PortalSession, SessionStore
from portal.settings import get_settings

_MAX_CACHED_CLIENTS = 2048
_clients: OrderedDict[str, ProviderClient] = OrderedDict()


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


def anonymous_client(language: str, forwarded_for: str = "") -> ProviderClient:
    """A client without a session, for login; the caller closes it."""
    return ProviderClient(
        provider_base_url(), language=language, forwarded_for=forwarded_for or None
    )


def session_client(
    token: str, session: PortalSession, language: str, forwarded_for: str = ""
) -> ProviderClient:
    """The provider client of a portal session, created on first use."""
    client = _clients.get(token)
    if client is None:
        client = ProviderClient(
            provider_base_url(),
            language=language,
            cookies=session.provider_cookies,
            forwarded_for=forwarded_for or None,
        )
        _clients[token] = client
        while len(_clients) > _MAX_CACHED_CLIENTS:
            _clients.popitem(last=False)
    else:
        _clients.move_to_end(token)
        client.language = language
        if client.cookies() != session.provider_cookies:
            # Another worker rotated the provider session (impersonation) and stored the new
            # cookie: this process's client must not keep sending the closed session's.
            client.use_cookies(session.provider_cookies)
    return client


async def forget_client(token: str) -> None:
    client = _clients.pop(token, None)
    if client is not None:
        await client.close()
