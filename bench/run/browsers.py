"""Simulated browsers: websocket clients that speak Reflex's event protocol the way the compiled
front end does (Socket.IO over Engine.IO 4 on ``/_event``, namespace ``/_event``, the hydrate
event inside the CONNECT packet), and time each event to the state update that answers it.

Each browser logs in on ``/login`` (the login page's own events), claims its session cookie over
HTTP as the page's ``window.location.assign`` would, reconnects on the home page with that
cookie, opens the services list (a client-side navigation), changes the status filter and the
page a few times, then goes back to the home page. Nothing is rendered: the figures are the
server's side of an interaction, from the event leaving the browser to the delta that changes
what it shows. Between two interactions a browser waits a think time drawn around ``think``
seconds (seeded, so runs compare), and the browsers start spread over the first seconds, as
users arrive.
"""

import asyncio
import json
import random
import re
import statistics
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import reflex as rx
import websockets

from portal.pages.home.state import DashboardMaintenancesState, DashboardState, LastTicketsState
from portal.pages.login.state import LoginState
from portal.pages.monitoring.state import MonitoringState
from portal.pages.services.state import ServicesState

ROOT_STATE = "reflex___state____state"
HYDRATE_AND_LOAD = f"{ROOT_STATE}.hydrate_and_load"
ON_LOAD = f"{ROOT_STATE}.reflex___state____on_load_internal_state.on_load_internal"
NAMESPACE = "/_event"
_ASSIGN = re.compile(r"window\.location\.assign\((\".*?\")\)")
STEP_TIMEOUT = 120.0
# Filter and page changes per browser after the list opens: enough samples for a p95.
ROUNDS = 3
# Users arrive spread over this many think times (10 s by default): a morning rush, not one
# instant, which would measure only the queue of password hashes (argon2id, ~8 logins/s here).
ARRIVAL_THINKS = 5

Update = dict[str, Any]
Predicate = Callable[[Update], Any]


def _handler(state: type[rx.State], name: str) -> str:
    return f"{state.get_full_name()}.{name}"


def _router_data(path: str) -> dict[str, Any]:
    return {"pathname": path, "asPath": path, "query": {}}


def _changed(state: type[rx.State], var: str) -> Predicate:
    """An update whose delta sets ``var`` of ``state`` (vars travel with a suffix)."""
    key = state.get_full_name()

    def matches(update: Update) -> bool:
        values = (update.get("delta") or {}).get(key) or {}
        return any(name == var or name.startswith(f"{var}_rx_") for name in values)

    return matches


def _done(state: type[rx.State], flag: str = "loading") -> Predicate:
    """An update that sets ``flag`` of ``state`` to false: what it was loading has arrived."""
    key = state.get_full_name()

    def matches(update: Update) -> bool:
        values = (update.get("delta") or {}).get(key) or {}
        return any(
            (name == flag or name.startswith(f"{flag}_rx_")) and value is False
            for name, value in values.items()
        )

    return matches


def _all_of(*predicates: Predicate) -> Predicate:
    """True once every one of ``predicates`` has matched, over as many updates as it takes."""
    waiting = list(predicates)

    def matches(update: Update) -> bool:
        waiting[:] = [predicate for predicate in waiting if not predicate(update)]
        return not waiting

    return matches


def _load_name(path: str) -> str:
    return f"page load {path} (connect → hydrated)"


# The page every browser lands on after logging in: once the last one has, all have arrived.
LANDING = _load_name("/")


def _hydrated(update: Update) -> bool:
    values = (update.get("delta") or {}).get(ROOT_STATE) or {}
    return any(name.startswith("is_hydrated") and value for name, value in values.items())


def _page_load(update: Update) -> str | None:
    """The URL of a full page load the update asks for (``load_from_server``), if any."""
    for event in update.get("events") or []:
        script = (event.get("payload") or {}).get("javascript_code") or ""
        if found := _ASSIGN.search(script):
            return str(json.loads(found.group(1)))
    return None


class Socket:
    """One Socket.IO connection to the Reflex backend, as the front end opens it."""

    def __init__(self, url: str, token: str, path: str, cookie: str = "") -> None:
        parts = urlsplit(url)
        self.url = f"ws://{parts.netloc}{NAMESPACE}/?EIO=4&transport=websocket&token={token}"
        self.cookie = cookie
        self.path = path
        self.updates: asyncio.Queue[Update] = asyncio.Queue()
        self._connection: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self._connection = await websockets.connect(
            self.url, additional_headers=headers, max_size=None, compression=None
        )
        opened = await self._connection.recv()
        if not str(opened).startswith("0"):
            raise RuntimeError(f"unexpected Engine.IO greeting: {opened[:80]!r}")
        boot = {"name": HYDRATE_AND_LOAD, "payload": {}, "router_data": _router_data(self.path)}
        await self._connection.send(f"40{NAMESPACE}," + json.dumps({"event": boot}))
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        prefix = f"42{NAMESPACE},"
        async for message in self._connection:
            if message == "2":  # Engine.IO ping
                await self._connection.send("3")
            elif message.startswith(prefix):
                name, *data = json.loads(message[len(prefix) :])
                if name == "event" and data:
                    self.updates.put_nowait(data[0])
            elif message.startswith(f"44{NAMESPACE},"):
                raise RuntimeError(f"connection refused: {message[:200]}")

    @property
    def closed(self) -> bool:
        """Whether the server has closed the websocket (the page's socket is then disconnected)."""
        return self._reader is not None and self._reader.done()

    async def wait_closed(self) -> None:
        """Returns once the server has closed the websocket."""
        if self._reader is not None:
            await asyncio.wait([self._reader])

    async def emit(self, name: str, payload: dict[str, Any] | None = None) -> None:
        event = {"name": name, "payload": payload or {}, "router_data": _router_data(self.path)}
        await self._connection.send(f"42{NAMESPACE}," + json.dumps(["event", event]))

    async def until(self, predicate: Predicate) -> Any:
        """Reads updates until one satisfies ``predicate``; returns what the predicate gave."""
        async with asyncio.timeout(STEP_TIMEOUT):
            while True:
                if self._reader and self._reader.done() and self.updates.empty():
                    self._reader.result()
                    raise RuntimeError("the websocket closed")
                try:
                    update = await asyncio.wait_for(self.updates.get(), 1.0)
                except TimeoutError:
                    continue
                if found := predicate(update):
                    return found

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
        if self._reader is not None:
            self._reader.cancel()

    async def disconnect(self) -> None:
        """What the page's ``socket.disconnect()`` does: Socket.IO's disconnect, then the close."""
        if not self.closed:
            await self._connection.send(f"41{NAMESPACE},")
        await self.close()


@dataclass
class Timings:
    """Event → state update latencies (seconds), by interaction, each with the moment it ended:
    the arrival phase (until the last browser has landed on the home page, while argon2id hashes
    the passwords) is told apart from the steady state after it."""

    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def add(self, name: str, seconds: float) -> None:
        self.samples.setdefault(name, []).append((time.perf_counter(), seconds))

    def arrived_at(self) -> float:
        """When the last browser landed on the home page (0 when none did)."""
        return max((ended for ended, _ in self.samples.get(LANDING, [])), default=0.0)

    def summary(self) -> list[dict[str, Any]]:
        """Each interaction's count and percentiles, and the same over the interactions that
        began after the arrival, where there are any: one that began during the rush waited
        behind the password hashes even if it ended after them."""
        arrived = self.arrived_at()
        rows = []
        for name, timed in self.samples.items():
            rows.append({"name": name, "count": len(timed), **_percentiles(timed)})
            after = [(ended, seconds) for ended, seconds in timed if ended - seconds > arrived]
            if after:
                rows[-1]["after_arrival"] = {"count": len(after), **_percentiles(after)}
        return rows


def _percentiles(timed: list[tuple[float, float]]) -> dict[str, float]:
    ordered = sorted(seconds for _, seconds in timed)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50_ms": statistics.median(ordered) * 1000, "p95_ms": p95 * 1000}


async def _timed(timings: Timings, name: str, socket: Socket, send: Sequence[tuple[str, dict]],
                 predicate: Predicate) -> Any:  # fmt: skip
    started = time.perf_counter()
    for event, payload in send:
        await socket.emit(event, payload)
    found = await socket.until(predicate)
    timings.add(name, time.perf_counter() - started)
    return found


class Browser:
    """One user's tab: log in, open the services list, filter and page, back to the home page."""

    def __init__(self, url: str, email: str, password: str, timings: Timings, think: float,
                 seed: int) -> None:  # fmt: skip
        self.url, self.email, self.password = url, email, password
        self.timings = timings
        self.think = think
        self.random = random.Random(seed)  # noqa: S311 - think times, not secrets
        self.token = str(uuid.uuid4())
        self.socket: Socket | None = None
        # What the browser waits for, named in its failure.
        self.step = "arriving"

    async def pause(self) -> None:
        """A user's think time between two interactions: half to one and a half ``think``."""
        if self.think:
            await asyncio.sleep(self.think * self.random.uniform(0.5, 1.5))

    async def _connect(self, path: str, cookie: str = "") -> Socket:
        if self.socket is not None:
            await self.socket.close()
        self.socket = Socket(self.url, self.token, path, cookie)
        self.step = f"page load {path}"
        started = time.perf_counter()
        await self.socket.open()
        await self.socket.until(_hydrated)
        self.timings.add(_load_name(path), time.perf_counter() - started)
        return self.socket

    def _navigate(self, path: str) -> Socket:
        """A client-side navigation to ``path`` on the logged-in browser's socket."""
        if self.socket is None:
            raise RuntimeError(f"opening {path} needs a logged-in browser: call log_in first")
        self.socket.path = path
        return self.socket

    async def log_in(self, http: httpx.AsyncClient) -> None:
        socket = await self._connect("/login")
        await self.pause()  # typing
        await socket.emit(_handler(LoginState, "set_login_email"), {"value": self.email})
        await socket.emit(_handler(LoginState, "set_login_password"), {"value": self.password})
        # The form's data, as the front end submits it: the handler reads the fields from it.
        form = {"form": {"email": self.email, "password": self.password}}
        self.step = "log in"
        claim = await _timed(
            self.timings, "log in", socket, [(_handler(LoginState, "submit"), form)], _page_load
        )
        self.step = "claiming the session"
        response = await http.get(self.url + claim, follow_redirects=False)
        session = response.cookies.get("patchbay_session")
        if response.status_code >= 400 or not session:
            raise RuntimeError(f"claiming the session failed: {response.status_code}")
        await self._connect("/", f"patchbay_session={session}")

    async def browse_services(self) -> None:
        socket = self._navigate("/services")
        rows = _changed(ServicesState, "rows")
        await self.pause()
        self.step = "open the services list"
        await _timed(self.timings, self.step, socket, [(ON_LOAD, {})], rows)
        toggle = [
            (_handler(ServicesState, "toggle_filter"), {"name": "statuses", "value": "active"})
        ]
        page = [(_handler(ServicesState, "go_to_page"), {"page": 2}),
                (_handler(ServicesState, "refresh"), {})]  # fmt: skip
        for _ in range(ROUNDS):
            for name, events in (("change a filter", toggle), ("next page", page),
                                 ("change a filter", toggle)):  # fmt: skip
                await self.pause()
                self.step = name
                await _timed(self.timings, name, socket, events, rows)

    async def back_home(self) -> None:
        """Back to the home page: timed until its tiles and both tables have arrived."""
        socket = self._navigate("/")
        # Not the first update of a table, which empties its rows: the one that ends its load.
        shown = _all_of(_done(DashboardState, "counting"), _done(LastTicketsState),
                        _done(DashboardMaintenancesState))  # fmt: skip
        await self.pause()
        self.step = "back to the home page"
        await _timed(self.timings, self.step, socket, [(ON_LOAD, {})], shown)

    async def watch_monitoring(self, rounds: int) -> None:
        """The monitoring screen: opened (every sensor's card arrives), then ``rounds`` of the
        30-second refresh, each timed to the update that answers it."""
        socket = self._navigate("/monitoring")
        groups = _changed(MonitoringState, "groups")
        await _timed(self.timings, "open the monitoring screen", socket, [(ON_LOAD, {})], groups)
        refresh: list[tuple[str, dict[str, Any]]] = [(_handler(MonitoringState, "refresh"), {})]
        for _ in range(rounds):
            await self.pause()
            shown = _changed(MonitoringState, "shown")
            await _timed(self.timings, "refresh the monitoring screen", socket, refresh, shown)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


async def _watch(url: str, email: str, password: str, rounds: int, think: float) -> Timings:
    timings = Timings()
    browser = Browser(url, email, password, timings, think, seed=0)
    try:
        async with httpx.AsyncClient(timeout=STEP_TIMEOUT) as http:
            await browser.log_in(http)
            await browser.watch_monitoring(rounds)
    finally:
        await browser.close()
    return timings


def watch_monitoring(url: str, email: str, password: str, rounds: int, think: float) -> Timings:
    """One tab alone on the monitoring screen: its opening and ``rounds`` refreshes."""
    return asyncio.run(_watch(url, email, password, rounds, think))


async def _run(url: str, email: str, password: str, count: int, think: float,
               connected: Callable[[], Any]) -> tuple[Timings, Any]:  # fmt: skip
    timings = Timings()
    browsers = [Browser(url, email, password, timings, think, seed) for seed in range(count)]
    limits = httpx.Limits(max_connections=count)
    async with httpx.AsyncClient(timeout=STEP_TIMEOUT, limits=limits) as http:

        async def one(browser: Browser) -> None:
            try:
                await asyncio.sleep(browser.random.uniform(0, ARRIVAL_THINKS * browser.think))
                await browser.log_in(http)
                await browser.browse_services()
                await browser.back_home()
            except Exception as error:  # one browser failing is reported, the others go on
                timings.failures.append(f"{browser.step}: {type(error).__name__}: {error}"[:200])

        try:
            await asyncio.gather(*(one(browser) for browser in browsers))
            # Every tab still connected, as open tabs would be: what the server holds for them.
            reading = connected()
        finally:
            await asyncio.gather(*(browser.close() for browser in browsers))
    return timings, reading


def simulate(url: str, email: str, password: str, count: int, think: float,
             connected: Callable[[], Any]) -> tuple[Timings, Any]:  # fmt: skip
    """Runs ``count`` browsers at once; ``connected()`` is read while all are still connected."""
    return asyncio.run(_run(url, email, password, count, think, connected))
