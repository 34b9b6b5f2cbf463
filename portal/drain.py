"""What a stopping worker does for its requests and tabs (issue 56, graceful-drain.md).

A worker of ``portal.serve`` goes through two phases once told to stop. *Draining*, for
``SHUTDOWN_DRAIN_SECONDS``: ``/readyz`` answers 503, the time a proxy that polls readiness needs
to take the instance out, and the worker serves as usual, except that each answer closes its
connection: a proxy keeps no idle connection to it that the worker would close later while the
proxy sends on it. *Closing*: it accepts no connection any more, so a proxy's next attempt is
refused and goes to another instance, a POST included since nothing was sent; what still comes
on a connection the proxy holds is served, except a websocket, refused with 503 before its
upgrade so that the proxy opens it on another instance. Meanwhile each tab, once its events are
done, is asked to reconnect: the page disconnects, connects again through the proxy, elsewhere,
and finds its state in Redis. The worker stops when no request or event is left, or when
``SHUTDOWN_GRACE_SECONDS`` have passed.

Under ``reflex run`` (development, the browser tests) nothing tells a worker to stop: the
middleware below passes every request through.
"""

import asyncio
import enum
import logging
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from reflex.event import Event, call_script
from reflex.state import StateUpdate
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

# How often the closing worker looks at its tabs and requests again.
_POLL_SECONDS = 0.05


class Phase(enum.Enum):
    SERVING = "serving"
    DRAINING = "draining"
    CLOSING = "closing"


@dataclass
class _WorkerState:
    """This process's phase and the HTTP requests it is answering."""

    phase: Phase = Phase.SERVING
    requests_in_progress: int = 0

    @property
    def stopping(self) -> bool:
        return self.phase is not Phase.SERVING


worker = _WorkerState()


class DrainMiddleware:
    """Counts the HTTP requests in progress. Once the worker is stopping, answers each with
    ``Connection: close``; once it is closing, refuses a new websocket with 503, which a proxy
    retries on another instance (a GET: idempotent)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and worker.phase is Phase.CLOSING:
            await _refuse_websocket(send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and worker.stopping:
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                message = {**message, "headers": [*kept, (b"connection", b"close")]}
            await send(message)

        worker.requests_in_progress += 1
        try:
            await self.app(scope, receive, send_closing)
        finally:
            worker.requests_in_progress -= 1


async def _refuse_websocket(send: Send) -> None:
    # ASGI's denial response (uvicorn's "websocket.http.response" extension): an HTTP answer
    # instead of the upgrade, so that the proxy counts a failure it may retry.
    await send(
        {
            "type": "websocket.http.response.start",
            "status": 503,
            "headers": [(b"content-type", b"text/plain"), (b"retry-after", b"1")],
        }
    )
    await send({"type": "websocket.http.response.body", "body": b"This instance is stopping."})


# What Reflex's page does when it is hidden then shown: it disconnects its websocket, after
# sending what it holds, keeps its new events meanwhile, and connects again as a reconnect, with
# its token. Asked to do so, the page closes the websocket itself: no message of it can cross a
# close on the way.
RECONNECT_SCRIPT = (
    'window.dispatchEvent(new Event("pagehide"));'
    'document.dispatchEvent(new Event("visibilitychange"));'
)
# How long an asked tab has to reconnect before the worker closes its websocket itself.
RECONNECT_SECONDS = 5.0


class EventWork(Protocol):
    """What ``finish`` needs of the app's websocket side (``ReflexEventWork`` in production)."""

    def tabs(self) -> Mapping[str, str]:
        """Each tab whose websocket is open on this worker: its Socket.IO id, with its token."""

    def tab_is_busy(self, token: str) -> bool:
        """Whether an event of the tab has been received and not finished."""

    def events_in_progress(self) -> int:
        """Every event of this worker not finished yet, background ones included."""

    async def ask_to_reconnect(self, token: str) -> None:
        """Sends the tab ``RECONNECT_SCRIPT``."""

    def close_tab(self, sid: str) -> None:
        """Sends the tab's queued updates, then closes its websocket as a lost transport."""


async def finish(work: EventWork, deadline: float) -> bool:
    """Asks each tab to reconnect once its events are done (and closes it if it has not after
    ``RECONNECT_SECONDS``), then waits for every request and event to end. True when nothing
    was left at ``deadline`` (``time.monotonic()``)."""
    asked: dict[str, float] = {}
    closed: set[str] = set()
    while time.monotonic() < deadline:
        now = time.monotonic()
        for sid, token in work.tabs().items():
            if sid not in asked:
                if not work.tab_is_busy(token):
                    await work.ask_to_reconnect(token)
                    asked[sid] = now
            elif sid not in closed and now - asked[sid] > RECONNECT_SECONDS:
                work.close_tab(sid)
                closed.add(sid)
        if not (work.tabs() or worker.requests_in_progress or work.events_in_progress()):
            logger.info(
                "%d tabs moved (%d closed by the server); no request or event left",
                len(asked),
                len(closed),
            )
            return True
        await asyncio.sleep(_POLL_SECONDS)
    logger.warning(
        "Stopping with %d tabs, %d requests and %d events left after the grace period",
        len(work.tabs()),
        worker.requests_in_progress,
        work.events_in_progress(),
    )
    return False


class ReflexEventWork:
    """``EventWork`` on Reflex 0.10's Socket.IO server and event processor.

    Reflex tells nothing public about an event in progress, nor which tab it belongs to, so
    ``count_events`` wraps the worker's event processor: each event it takes in (a tab's, one an
    event chains, a background one) counts for its tab until its future is done. Socket.IO then
    handles a tab's message in the step that reads it (``async_handlers`` off) instead of in a
    task of its own: a message read is counted at once, never in a task not started yet.

    A tab that does not reconnect when asked (not Reflex's page, or a page too busy) is closed
    the way Engine.IO's writer closes it when its queue ends (``None``): the updates queued
    before are sent, then the websocket closes, without Engine.IO's close, which would first
    drop the tab from the namespace and with it a message already arrived. Its disconnect then
    comes from its reader, once it has read everything. ``tests/unit/test_drain.py`` holds these
    parts of Reflex and Engine.IO to what is used here.
    """

    def __init__(self, app: Any) -> None:
        self._app = app
        self._unfinished: Counter[str] = Counter()

    def count_events(self) -> None:
        self._app.sio.async_handlers = False
        processor = self._app._event_processor
        enqueue = processor.enqueue

        async def counted(token: str, event: Any, ev_ctx: Any = None) -> Any:
            future = await enqueue(token, event, ev_ctx)
            if not future.done():
                self._unfinished[token] += 1
                future.add_done_callback(lambda _: self._finished(token))
            return future

        # An attribute of the instance, looked up before the class's method by every caller.
        processor.enqueue = counted

    def _finished(self, token: str) -> None:
        self._unfinished[token] -= 1
        if self._unfinished[token] <= 0:
            del self._unfinished[token]

    def _engine_socket(self, sid: str) -> Any:
        server = self._app.sio
        engine_sid = server.manager.eio_sid_from_sid(sid, self._app.event_namespace.namespace)
        return server.eio.sockets.get(engine_sid) if engine_sid is not None else None

    def tabs(self) -> Mapping[str, str]:
        namespace = self._app.event_namespace
        if namespace is None:
            return {}
        open_sockets = {}
        for sid, token in list(namespace.sid_to_token.items()):
            socket = self._engine_socket(sid)
            if socket is not None and not socket.closed:
                open_sockets[sid] = token
        return open_sockets

    def tab_is_busy(self, token: str) -> bool:
        return self._unfinished[token] > 0

    def events_in_progress(self) -> int:
        return sum(self._unfinished.values())

    async def ask_to_reconnect(self, token: str) -> None:
        script = Event.from_event_type(call_script(RECONNECT_SCRIPT))
        await self._app.event_namespace.emit_update(StateUpdate(events=script), token)

    def close_tab(self, sid: str) -> None:
        socket = self._engine_socket(sid)
        if socket is not None:
            socket.queue.put_nowait(None)
