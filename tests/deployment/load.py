"""The load the drain and rolling-upgrade tests send through the proxy while instances stop, and
what it tells afterwards: every request that failed, and every form submission that was lost.

- **HTTP clients** logged in as alice read a service and replace its client references (a POST:
  the proxy may not retry it once sent), in turn, each on a service of its own. A failure is an
  error of the connection or any status but 200.
- **Tabs** speak the websocket as the compiled front end does (``bench/run/browsers.py``): each
  logs in with the login form, opens a service page of its own and submits the client
  references form again and again. When its websocket closes, or when a stopping instance asks
  it to (``portal.drain.RECONNECT_SCRIPT``), it reconnects as Reflex's page does, with its
  token and cookie, and sends the form it had not sent; a submission left unanswered is read
  back from the page: stored (answered too late, not lost) or lost.

Afterwards ``check_stored`` compares the audit log (one line per stored change) with what was
answered: nothing lost, nothing stored twice."""

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
import websockets

from bench.run.browsers import ON_LOAD, Browser, Socket, Timings, _done, _handler, _hydrated
from portal.drain import RECONNECT_SCRIPT
from portal.pages.service.state import ServiceState
from tests.deployment.cluster import DEMO_PASSWORD

ALICE = "alice@acme-networks.test"
WRITE = "/provider/api/services/client_reference"
# Between two requests of one client, two submissions of one tab: a steady load that leaves
# the two cores room for the instances that start and stop.
PAUSE_SECONDS = 0.02
TAB_PAUSE_SECONDS = 0.2
STEP_SECONDS = 60


@dataclass
class Service:
    id: str
    reference: str


@dataclass
class Outcome:
    """What the load saw. ``answers`` holds (monotonic time, instance) for each HTTP answer."""

    answers: list[tuple[float, str]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stored: Counter[str] = field(default_factory=Counter)  # reference → changes answered
    lost: list[str] = field(default_factory=list)
    reconnects: int = 0
    late: int = 0  # submissions whose answer the closing socket took, found stored
    deaf_client: str = "not run"

    def served_by(self, since: float, until: float = float("inf")) -> Counter[str]:
        return Counter(name for moment, name in self.answers if since <= moment < until)


async def sign_in(client: httpx.AsyncClient) -> None:
    answer = await client.post(
        "/provider/login", json={"username": ALICE, "password": DEMO_PASSWORD}
    )
    assert answer.status_code == 204, answer.text


async def services(proxy: str, count: int) -> list[Service]:
    async with httpx.AsyncClient(base_url=proxy, headers={"Origin": proxy}) as client:
        await sign_in(client)
        answer = await client.get("/provider/api/services", params={"itemsPerPage": count})
        members = answer.json()["hydra:member"]
    assert len(members) == count, f"alice sees {len(members)} services, not {count}"
    return [Service(member["id"], member["reference"]) for member in members]


async def _http_client(proxy: str, service: Service, stop: asyncio.Event, outcome: Outcome) -> None:
    async with httpx.AsyncClient(
        base_url=proxy, headers={"Origin": proxy}, timeout=STEP_SECONDS
    ) as client:
        await sign_in(client)
        number = 0
        while not stop.is_set():
            number += 1
            write = number % 2 == 0
            try:
                if write:
                    body = {"reference": service.reference, "clientReferences": f"HTTP-{number}"}
                    answer = await client.post(WRITE, json=body)
                else:
                    answer = await client.get(f"/provider/api/services/{service.id}")
            except httpx.HTTPError as error:
                outcome.failures.append(
                    f"{'POST' if write else 'GET'}: {type(error).__name__} {error}"
                )
                continue
            served = answer.headers.get("X-Served-By", "?")
            if answer.status_code != 200:
                outcome.failures.append(
                    f"{answer.request.method} {answer.status_code} from {served}"
                )
                continue
            outcome.answers.append((time.monotonic(), served))
            if write:
                outcome.stored[service.reference] += 1
            await asyncio.sleep(PAUSE_SECONDS)


class ReconnectAsked(Exception):
    """The instance asked the page to reconnect: the page does at once."""


def asks_to_reconnect(update: dict[str, Any]) -> bool:
    return any(
        event.get("name") == "_call_script"
        and (event.get("payload") or {}).get("javascript_code") == RECONNECT_SCRIPT
        for event in update.get("events") or []
    )


def _answered(update: dict[str, Any]) -> bool:
    if asks_to_reconnect(update):
        raise ReconnectAsked
    return bool(_done(ServiceState, "saving")(update))


def _asked_meanwhile(socket: Socket) -> bool:
    """Whether an update received since the last answer asks the page to reconnect."""
    asked = False
    while not socket.updates.empty():
        asked = asks_to_reconnect(socket.updates.get_nowait()) or asked
    return asked


def _service_of(update: dict[str, Any]) -> dict[str, Any] | None:
    values = (update.get("delta") or {}).get(ServiceState.get_full_name()) or {}
    for name, value in values.items():
        if (name == "service" or name.startswith("service_rx_")) and value.get("id"):
            return value
    return None


class FormTab:
    """A tab on a service page submitting its client references form (see the module)."""

    def __init__(self, proxy: str, service: Service, number: int, outcome: Outcome) -> None:
        self.browser = Browser(proxy, ALICE, DEMO_PASSWORD, Timings(), think=0, seed=number)
        self.service = service
        self.number = number
        self.outcome = outcome
        self.path = f"/services/{service.id}"
        self.cookie = ""
        self.shown: dict[str, Any] = {}

    async def _open(self) -> Socket:
        """The service page, on a new websocket with the tab's token: what Reflex's page does
        when its websocket closes. Returns once the page has read the service again."""
        if self.browser.socket is not None:
            await self.browser.socket.close()
        socket = self.browser.socket = Socket(
            self.browser.url, self.browser.token, self.path, self.cookie
        )
        await socket.open()
        await socket.until(_hydrated)
        await socket.emit(ON_LOAD)
        self.shown = await socket.until(_service_of)
        return socket

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        await self.browser.log_in(http)
        assert self.browser.socket is not None
        self.cookie = self.browser.socket.cookie
        socket = await self._open()
        number = 0
        while not stop.is_set():
            number += 1
            value = f"TAB-{self.number}-{number}"
            if _asked_meanwhile(socket):
                socket = await self._reconnect(disconnect=True)
            if not await self._send(socket, value):
                # Closed before the form went: Reflex's page keeps its events while it is
                # disconnected and sends them once it has reconnected.
                socket = await self._reconnect(disconnect=False)
                assert await self._send(socket, value), "the new websocket closed at once"
            try:
                await socket.until(_answered)
            except (ReconnectAsked, RuntimeError, websockets.ConnectionClosed) as reason:
                # Sent, and the page reconnected before the answer: it reads the page again.
                asked = isinstance(reason, ReconnectAsked)
                socket = await self._reconnect(disconnect=asked)
                if self.shown["client_references"] == [value]:
                    self.outcome.late += 1
                    self.outcome.stored[self.service.reference] += 1
                else:
                    shown = self.shown["client_references"]
                    self.outcome.lost.append(f"{value}: the page shows {shown}")
            else:
                self.outcome.stored[self.service.reference] += 1
            await asyncio.sleep(TAB_PAUSE_SECONDS)
        await socket.close()

    async def _send(self, socket: Socket, value: str) -> bool:
        """Submits the form; False when the websocket was closed and the form not sent whole."""
        if socket.closed:
            return False
        try:
            await socket.emit(_handler(ServiceState, "set_references_text"), {"value": value})
            await socket.emit(_handler(ServiceState, "save_references"))
        except websockets.ConnectionClosed:
            return False
        return True

    async def _reconnect(self, *, disconnect: bool) -> Socket:
        """A new websocket for the page; ``disconnect``: the page closes the old one itself."""
        self.outcome.reconnects += 1
        if disconnect and self.browser.socket is not None:
            await self.browser.socket.disconnect()
        return await self._open()


async def _deaf_client(url: str, stop: asyncio.Event, outcome: Outcome) -> None:
    """A websocket client that is not Reflex's page, connected to the instance at ``url``: it
    does nothing and never reconnects when asked."""
    socket = Socket(url, "deaf-client", "/")
    await socket.open()
    await socket.until(_hydrated)
    outcome.deaf_client = "connected"
    waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(socket.wait_closed())]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for waiting in waits:
        waiting.cancel()
    asked = False
    while not socket.updates.empty():
        asked = asks_to_reconnect(socket.updates.get_nowait()) or asked
    if asked and socket.closed:
        outcome.deaf_client = "asked, then closed by the instance"
    else:
        outcome.deaf_client = f"asked: {asked}, closed: {socket.closed}"
    await socket.close()


class Load:
    """Runs the clients and tabs in a thread of their own until ``stop()``; with ``deaf_url``,
    a deaf websocket client too (``_deaf_client``)."""

    def __init__(self, proxy: str, http_services: list[Service], tab_services: list[Service],
                 deaf_url: str | None = None) -> None:  # fmt: skip
        self.proxy = proxy
        self.deaf_url = deaf_url
        self.http_services = http_services
        self.tab_services = tab_services
        self.outcome = Outcome()
        self._loop = asyncio.new_event_loop()
        self._stop = asyncio.Event()
        self._task: asyncio.Future[list[BaseException | None]] | None = None
        self._errors: list[BaseException | None] = []

    async def _main(self) -> list[BaseException | None]:
        async with httpx.AsyncClient(base_url=self.proxy, timeout=STEP_SECONDS) as http:
            tabs = [
                FormTab(self.proxy, s, n, self.outcome) for n, s in enumerate(self.tab_services)
            ]
            deaf = [_deaf_client(self.deaf_url, self._stop, self.outcome)] if self.deaf_url else []
            return await asyncio.gather(
                *(
                    _http_client(self.proxy, s, self._stop, self.outcome)
                    for s in self.http_services
                ),
                *(tab.run(http, self._stop) for tab in tabs),
                *deaf,
                return_exceptions=True,
            )

    def __enter__(self) -> "Load":
        import threading

        def run() -> None:
            self._errors = self._loop.run_until_complete(self._main())

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        return self

    def wait_until(self, condition: Any, seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while not condition(self.outcome):
            assert self._thread.is_alive(), f"the load ended: {self._errors}"
            assert time.monotonic() < deadline, f"{what}: not seen in {seconds} s"
            time.sleep(0.2)

    def stop(self) -> Outcome:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(STEP_SECONDS * 2)
        assert not self._thread.is_alive(), "the load did not stop"
        errors = [repr(error) for error in self._errors if error is not None]
        assert not errors, f"a client or tab stopped on an error: {errors}"
        return self.outcome

    def __exit__(self, *exc_info: object) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(STEP_SECONDS * 2)


def audited_changes(database_url: str) -> Counter[str]:
    """Client-reference changes stored, by service reference, as the audit log has them."""
    with psycopg.connect(database_url) as db:
        rows = db.execute(
            "SELECT detail->>'reference', count(*) FROM audit_log"
            " WHERE action = 'service.client_references' GROUP BY 1"
        ).fetchall()
    return Counter({reference: count for reference, count in rows})
