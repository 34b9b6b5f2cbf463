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
"""

import hmac

from reflex.app import App
from reflex.middleware import Middleware
from reflex.state import BaseState, StateUpdate
from reflex_base import constants
from reflex_base.event import Event

from portal.session_store import COOKIE_NAME, cookie_value
from portal.state.session import SessionState


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
