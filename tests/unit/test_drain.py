"""A stopping worker (issue 56, ``portal.drain``): not ready at once, each answer closing its
connection, a new websocket refused once it closes, its tabs asked to reconnect when their
events are done, and the events of each tab counted on Reflex's own event processor.

The whole drain, through nginx and under load, is tests/deployment/test_drain.py."""

import asyncio
import time
from collections import Counter
from collections.abc import Mapping

import httpx
import pytest
from fastapi import FastAPI
from reflex.event import Event
from starlette.types import Message, Receive, Scope, Send

import portal.portal
from portal import drain, health
from portal.state.messages import MessagesState

pytestmark = pytest.mark.usefixtures("serving_worker")


def _refuse_to_be_asked() -> str:
    raise AssertionError("a stopping worker asks no dependency whether it is ready")


async def test_a_stopping_worker_is_not_ready_at_once_and_still_alive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = FastAPI()
    app.include_router(health.router)
    monkeypatch.setattr(health.dependencies, "provider_url", _refuse_to_be_asked)
    drain.worker.phase = drain.Phase.DRAINING
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as client:
        ready = await client.get("/readyz")
        alive = await client.get("/healthz")
    assert ready.status_code == 503
    assert ready.json()["status"] == "stopping"
    assert ready.headers["cache-control"] == "no-store"
    assert alive.status_code == 200


async def _answering_app(scope: Scope, receive: Receive, send: Send) -> None:
    in_progress = drain.worker.requests_in_progress
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"connection", b"keep-alive"),
                (b"x-in-progress", str(in_progress).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b"ok"})


async def _answer(phase: drain.Phase) -> httpx.Response:
    drain.worker.phase = phase
    transport = httpx.ASGITransport(drain.DrainMiddleware(_answering_app))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        return await client.get("/provider/api/services")


async def test_answers_keep_their_connection_while_serving_and_close_it_while_stopping() -> None:
    assert (await _answer(drain.Phase.SERVING)).headers["connection"] == "keep-alive"
    for phase in (drain.Phase.DRAINING, drain.Phase.CLOSING):
        answer = await _answer(phase)
        assert answer.headers.get_list("connection") == ["close"]
        assert answer.text == "ok"


async def test_a_request_counts_as_in_progress_until_its_answer_is_sent() -> None:
    answer = await _answer(drain.Phase.SERVING)
    assert answer.headers["x-in-progress"] == "1"
    assert drain.worker.requests_in_progress == 0


async def _open_websocket(phase: drain.Phase) -> list[Message]:
    drain.worker.phase = phase
    sent: list[Message] = []
    reached: list[Scope] = []

    async def event_app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope)
        await send({"type": "websocket.accept"})

    async def receive() -> Message:
        return {"type": "websocket.connect"}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "websocket", "path": "/_event/", "headers": []}
    await drain.DrainMiddleware(event_app)(scope, receive, send)
    assert bool(reached) == (phase is not drain.Phase.CLOSING)
    return sent


async def test_a_closing_worker_refuses_a_new_websocket_with_a_503_the_proxy_retries() -> None:
    assert await _open_websocket(drain.Phase.DRAINING) == [{"type": "websocket.accept"}]
    refused = await _open_websocket(drain.Phase.CLOSING)
    assert refused[0]["type"] == "websocket.http.response.start"
    assert refused[0]["status"] == 503
    assert refused[-1]["type"] == "websocket.http.response.body"


class Tabs:
    """``EventWork`` in memory: tabs that go once asked, unless ``deaf``."""

    def __init__(self, tabs: dict[str, str], busy: set[str], deaf: set[str] = frozenset()) -> None:
        self.open = dict(tabs)
        self.busy = busy
        self.deaf = deaf
        self.asked: list[str] = []
        self.closed: list[str] = []

    def tabs(self) -> Mapping[str, str]:
        return dict(self.open)

    def tab_is_busy(self, token: str) -> bool:
        return token in self.busy

    def events_in_progress(self) -> int:
        return len(self.busy)

    async def ask_to_reconnect(self, token: str) -> None:
        self.asked.append(token)
        if token not in self.deaf:
            self.open = {sid: t for sid, t in self.open.items() if t != token}

    def close_tab(self, sid: str) -> None:
        self.closed.append(sid)
        self.open.pop(sid)


async def test_a_tab_is_asked_to_reconnect_once_its_events_are_done() -> None:
    tabs = Tabs({"s1": "idle", "s2": "working"}, busy={"working"})
    finishing = asyncio.create_task(drain.finish(tabs, time.monotonic() + 10))
    await asyncio.sleep(0.2)
    assert tabs.asked == ["idle"]
    tabs.busy.clear()
    assert await finishing
    assert tabs.asked == ["idle", "working"]
    assert tabs.closed == []


async def test_a_tab_that_does_not_reconnect_is_closed_by_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(drain, "RECONNECT_SECONDS", 0.2)
    tabs = Tabs({"s1": "deaf", "s2": "page"}, busy=set(), deaf={"deaf"})
    assert await drain.finish(tabs, time.monotonic() + 10)
    assert tabs.closed == ["s1"]


async def test_the_grace_period_ends_the_wait_for_a_request() -> None:
    drain.worker.requests_in_progress = 1
    started = time.monotonic()
    assert not await drain.finish(Tabs({}, busy=set()), started + 0.3)
    assert time.monotonic() - started < 2


async def test_each_tab_s_events_are_counted_on_reflex_s_event_processor_until_done() -> None:
    """The parts of Reflex that ``ReflexEventWork`` relies on, with the portal's own app."""
    app = portal.portal.app
    work = drain.ReflexEventWork(app)
    async with app._setup_event_processor():
        work.count_events()
        assert app.sio.async_handlers is False
        dismiss = Event(
            name=f"{MessagesState.get_full_name()}.dismiss", payload={"message_id": "none"}
        )
        future = await app.event_processor.enqueue("tab-1", dismiss)
        assert work.tab_is_busy("tab-1")
        assert work.events_in_progress() == 1
        await asyncio.wait_for(asyncio.shield(future), 10)
        assert not work.tab_is_busy("tab-1")
        assert work.events_in_progress() == 0
    assert Counter() == work._unfinished
