"""The Reflex client token is no credential (issue 18, DESIGN 2): the signed-in state of a tab is
bound to the HttpOnly portal session cookie of the connection that sends each event.

Reflex keeps its client token in sessionStorage and puts it in the websocket URL, so a script,
a log line or a copied URL can carry it elsewhere. Before every event (hydration included) this
middleware compares the token of the session the state holds with the cookie the browser sent
on the websocket handshake; when they differ, the state is signed out before the event runs and
before any delta leaves, so the connection sees nothing of the user. A legitimate tab keeps
working: its next page guard restores the session from its own cookie.

It is a Reflex ``Middleware`` (``app.add_middleware``), the documented hook that runs under the
state lock before each event; see docs/decisions/reflex-token-binding.md.

Two ways in never reach it with the cookie they came with, and prove the state's session first
(issue 47, item 11; ``cookie_proves_session``): a websocket that takes a token back from the
socket Reflex links it to (``portal.reconnect``), and an upload to ``/_upload``, whose event
runs on the state with the headers of the tab's own websocket (``UploadCookieCheck``).
"""

import hmac
from collections.abc import Awaitable, Callable
from typing import Protocol

from redis.exceptions import RedisError
from reflex.app import App
from reflex.istate.manager import StateManager
from reflex.istate.manager.token import BaseStateToken
from reflex.middleware import Middleware
from reflex.state import BaseState, StateUpdate
from reflex_base import constants
from reflex_base.event import Event
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from portal.session_store import COOKIE_NAME, cookie_value
from portal.state.session import SessionState

UPLOAD_PATH = str(constants.Endpoint.UPLOAD)
# The header Reflex's front end names the tab's token in, on an upload.
UPLOAD_TAB_HEADER = "reflex-client-token"


def connection_cookie(state: BaseState) -> str:
    """The ``Cookie`` header of the websocket handshake that carries the current event."""
    headers = (state.router_data or {}).get(constants.RouteVar.HEADERS) or {}
    return str(headers.get("cookie", ""))


async def _load_every_substate(state: BaseState) -> None:
    """Brings every state of the tree into memory (a Redis state manager loads only the ones an
    event needs), so that a reset reaches the data of every page, not just the loaded ones."""
    for substate_class in state.get_substates():
        await _load_every_substate(await state.get_state(substate_class))


class SessionCookieBinding(Middleware):
    async def preprocess(self, app: App, state: BaseState, event: Event) -> StateUpdate | None:
        session = await state.get_state(SessionState)
        held = session._token
        if held and not hmac.compare_digest(
            held.encode(), cookie_value(connection_cookie(state), COOKIE_NAME).encode()
        ):
            root = state._get_root_state()
            await _load_every_substate(root)
            # Every page's data goes with the user: lists, items and forms read as them.
            root.reset()
            session._forget()
        return None


class _WithStates(Protocol):
    """What of the app the reading of a held session needs: ``rx.App`` is one."""

    @property
    def state_manager(self) -> StateManager: ...


async def held_session(app: _WithStates, token: str) -> str:
    """The portal session the state of Reflex token ``token`` holds, "" when signed out.

    Read under the state's lock, as an event reads it: with Redis, the worker serving the tab
    keeps its states in memory for a lease (docs/decisions/state-leases.md), and the record in
    Redis lagged the login of a tab opened a moment before. Asking for the lock ends that lease
    (the states are written), and the event that follows (the upload, the reconnect's hydration)
    finds them in this worker's memory."""
    path = SessionState.get_full_name().split(".")
    async with app.state_manager.modify_state(
        BaseStateToken(ident=token, cls=SessionState)
    ) as root:
        session = root.get_substate(path)
        return session._token if isinstance(session, SessionState) else ""


async def cookie_proves_session(app: _WithStates, token: str, cookie_header: str) -> bool:
    """Whether a request's cookies carry the portal session the state of ``token`` holds. A
    signed-out state is proven by nothing: what it holds (a login form, the claim ticket of a
    login under way) is the tab's alone too."""
    sent = cookie_value(cookie_header, COOKIE_NAME)
    if not token or not sent:
        return False
    held = await held_session(app, token)
    return bool(held) and hmac.compare_digest(held.encode(), sent.encode())


class UploadCookieCheck:
    """``/_upload`` answers only the tab whose token it names: 401 without a portal session
    cookie, 403 with one that is not the session of the token's state, before the body is read.

    Reflex runs an upload's handler as an event of the token's state, with the headers of the
    tab's websocket (the upload's own are not the event's), so ``SessionCookieBinding`` saw the
    tab's cookie, and the token alone put a file into a signed-in user's import dialog."""

    def __init__(self, app: ASGIApp, proves: Callable[[str, str], Awaitable[bool]]) -> None:
        self.app = app
        self.proves = proves

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].rstrip("/") == UPLOAD_PATH:
            headers = Headers(scope=scope)
            cookie = headers.get("cookie", "")
            if not cookie_value(cookie, COOKIE_NAME):
                await PlainTextResponse("", status_code=401)(scope, receive, send)
                return
            try:
                proven = await self.proves(headers.get(UPLOAD_TAB_HEADER, ""), cookie)
            except RedisError:
                # The tab's state is out of reach: so would the upload's event be.
                await PlainTextResponse("", status_code=503)(scope, receive, send)
                return
            if not proven:
                await PlainTextResponse("", status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
