"""What each layer of the portal's stack costs a request, in the workers' CPU time
(``python -m bench.floor --layers``, issue 55, item 1; docs/decisions/provider-floor.md).

The production server (``python -m portal.serve --no-frontend``, two workers, PostgreSQL and
Redis as ``bench.run`` has them) is started with temporary routes added in that process only,
each answering the same constant one layer deeper than the one before: before the app (the
server alone), on the portal's backend (Reflex's and the backend's middlewares), in the
provider's app, which the portal serves before its own stack (``portal.provider_first``: the
drain counter and the provider's middlewares), as a FastAPI route (dependency solving, the
response), then with what a read route takes (the session, the principal, a response model),
and an ``async def`` route with the principal, which a route that does no blocking I/O is.
wrk drives each at 10 connections; the workers' CPU time (psutil, user and system) over the
requests, less what they spend idle in the same time (measured first), is the route's cost.
Each line's "added" column is what it costs beyond the line it builds on.
"""

import asyncio
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import psutil
from pydantic import BaseModel
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from bench.generate.loader import plain_url
from bench.run.bodies import login_body
from bench.run.endpoints import ALICE
from bench.run.main import _session_cookie
from bench.run.servers import ROOT, Server, _stop, _wait, free_port, portal_environment
from bench.run.wrk import run_wrk
from portal.provider.platform.routing import ProviderRouter

BODY = b'{"ok":true}'
SERVER_PATH = "/_floor/server"
IDLE_SECONDS = 10.0


@dataclass(frozen=True)
class Layer:
    name: str
    path: str
    # The line whose cost this one adds to (None: the first).
    base: str | None
    signed_in: bool = False


LAYERS = [
    Layer("the server alone (Uvicorn, before the app)", SERVER_PATH, None),
    Layer("a portal route (Reflex's and the backend's middlewares)", "/_floor/portal",
          SERVER_PATH),
    Layer("in the provider's app (its middlewares)", "/provider/_floor/asgi", SERVER_PATH),
    Layer("a FastAPI route, sync (dependencies, the response)", "/provider/_floor/sync",
          "/provider/_floor/asgi"),
    Layer("a FastAPI route, async", "/provider/_floor/async", "/provider/_floor/asgi"),
    Layer("the same, last of the provider's routes (route matching)", "/provider/_floor/last",
          "/provider/_floor/sync"),
    Layer("with a response model", "/provider/_floor/model", "/provider/_floor/sync"),
    Layer("with the database session", "/provider/_floor/session", "/provider/_floor/sync"),
    Layer("with CurrentPrincipal (signed in)", "/provider/_floor/principal",
          "/provider/_floor/sync", signed_in=True),
    Layer("async, with CurrentPrincipal (signed in)", "/provider/_floor/principal-async",
          "/provider/_floor/async", signed_in=True),
]  # fmt: skip


class _Constant:
    """The same answer at every depth: a plain ASGI app (an instance, which Starlette's ``Route``
    calls as one, where it would pass a function a request)."""

    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": self.headers})
        await send({"type": "http.response.body", "body": BODY})


_constant = _Constant()


class _Answer(BaseModel):
    id: uuid.UUID
    name: str
    count: int
    ok: bool


def _provider_routes() -> tuple[ProviderRouter, ProviderRouter]:
    """The FastAPI routes: those put first among the provider's routes, and the one put last."""
    from portal.provider.platform.db import SessionDep
    from portal.provider.platform.security import CurrentPrincipal

    # The provider's own kind of router: its routes write their models as the real ones do.
    first = ProviderRouter(prefix="/_floor", include_in_schema=False)
    last = ProviderRouter(prefix="/_floor", include_in_schema=False)
    answer = {"ok": True}
    model = _Answer(id=uuid.UUID(int=1), name="floor", count=1, ok=True)

    @first.get("/sync")
    def sync_route() -> dict[str, bool]:
        return answer

    @first.get("/async")
    async def async_route() -> dict[str, bool]:
        return answer

    @first.get("/model", response_model=_Answer)
    def model_route() -> _Answer:
        return model

    @first.get("/session")
    def session_route(db: SessionDep) -> dict[str, bool]:
        return answer

    @first.get("/principal")
    def principal_route(principal: CurrentPrincipal) -> dict[str, bool]:
        return answer

    @first.get("/principal-async")
    async def principal_async_route(principal: CurrentPrincipal) -> dict[str, bool]:
        return answer

    @last.get("/last")
    def last_route() -> dict[str, bool]:
        return answer

    return first, last


def _add_routes(module: ModuleType) -> None:
    """``portal.serve``'s hook: the temporary routes, in this process only."""
    backend, provider = module.backend, module.provider
    backend.router.routes.insert(0, Route("/_floor/portal", _constant))
    first, last = _provider_routes()
    count = len(provider.router.routes)
    provider.include_router(first)
    added = provider.router.routes[count:]
    del provider.router.routes[count:]
    provider.router.routes[:0] = [Route("/_floor/asgi", _constant), *added]
    provider.include_router(last)
    setattr(module, "app", _Outermost(module.app))  # noqa: B010 (a module has no typed "app")


class _Outermost:
    """The app's factory, its ASGI app behind one that answers ``SERVER_PATH`` itself."""

    def __init__(self, factory: Any) -> None:
        self.factory = factory

    def __call__(self) -> Any:
        inner = self.factory()

        async def outermost(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http" and scope["path"] == SERVER_PATH:
                await _constant(scope, receive, send)
                return
            await inner(scope, receive, send)

        return outermost

    def __getattr__(self, name: str) -> Any:
        return getattr(self.factory, name)


@contextmanager
def _portal(database_url: str, redis_url: str, log: Path) -> Iterator[Server]:
    port = free_port()
    env = {**portal_environment(port, database_url, redis_url), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bench.floor.layers", "--no-frontend", "--port", str(port)]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait(url, SERVER_PATH, process, log)
        _wait(url, "/provider/api/service_types", process, log)
        yield Server(url, process)
    finally:
        _stop(process)


def _workers_cpu(server: Server) -> float:
    """Seconds of CPU the server's workers have used (user and system)."""
    total = 0.0
    for process in psutil.Process(server.process.pid).children(recursive=True):
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


@dataclass
class Figure:
    cpu_ms: list[float]
    rps: list[float]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.cpu_ms)


def idle_cpu(server: Server, seconds: float) -> float:
    """Seconds of CPU per second the workers spend with no request: their background tasks
    (roll-ups, outboxes, housekeeping) and the server's ticks, taken off each run's figure."""
    before, started = _workers_cpu(server), time.monotonic()
    time.sleep(seconds)
    return (_workers_cpu(server) - before) / (time.monotonic() - started)


def measure_layer(server: Server, path: str, headers: dict[str, str], connections: int,
                  warmup: float, seconds: float, runs: int, idle: float) -> Figure:  # fmt: skip
    url = server.url + path
    response = httpx.get(url, headers=headers, timeout=30)
    if response.status_code != 200:
        raise RuntimeError(f"{path} answered {response.status_code}: {response.text[:300]}")
    if warmup > 0:
        run_wrk(url, connections, warmup, headers)
    figure = Figure([], [])
    for _ in range(runs):
        before, started = _workers_cpu(server), time.monotonic()
        run = run_wrk(url, connections, seconds, headers)
        used = _workers_cpu(server) - before - idle * (time.monotonic() - started)
        if run.failed:
            raise RuntimeError(f"{path}: {run.failed} requests failed")
        figure.cpu_ms.append(used * 1000 / run.requests)
        figure.rps.append(run.rps)
    return figure


def measure_all(arguments: Any) -> None:
    from portal.settings import get_settings

    database_url = plain_url(get_settings().database_url)
    chosen = [layer for layer in LAYERS if not arguments.only or layer.path in arguments.only]
    timing = (arguments.warmup, arguments.seconds, arguments.runs)
    with (
        tempfile.TemporaryDirectory(prefix="bench-layers-") as folder,
        _portal(database_url, arguments.redis_url, Path(folder) / "portal.log") as server,
    ):
        cookie = _session_cookie(server.url, ALICE)
        idle = idle_cpu(server, IDLE_SECONDS)
        print(f"`python -m bench.floor --layers` — {arguments.connections} connections, "
              f"{arguments.runs} runs of {arguments.seconds:g} s, CPU of the workers per "
              "request (each run's figure, the median first), less their idle CPU "
              f"({idle * 1000:.1f} ms per second)\n")  # fmt: skip
        print("| Layer | path | CPU ms per request | added | req/s |")
        print("|---|---|--:|--:|--:|")
        figures: dict[str, Figure] = {}
        for layer in chosen:
            headers = {"Cookie": cookie} if layer.signed_in else {}
            figure = measure_layer(
                server, layer.path, headers, arguments.connections, *timing, idle
            )
            figures[layer.path] = figure
            base = figures.get(layer.base) if layer.base else None
            added = f"{figure.median_ms - base.median_ms:+.3f}" if base else ""
            runs = " / ".join(f"{ms:.3f}" for ms in figure.cpu_ms)
            print(f"| {layer.name} | `{layer.path}` | **{figure.median_ms:.3f}** ({runs}) | "
                  f"{added} | {statistics.median(figure.rps):.0f} |", flush=True)  # fmt: skip


async def _call(app: Any, path: str, headers: list[tuple[bytes, bytes]], method: str = "GET",
                body: bytes = b"") -> list[Message]:  # fmt: skip
    """One request to the ASGI ``app`` in this process; the messages it sent back."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    messages: list[Message] = []
    request = {"type": "http.request", "body": body, "more_body": False}

    async def receive() -> Message:
        nonlocal request
        if request:
            message, request = request, {}
            return message
        await asyncio.Event().wait()  # never disconnects
        raise AssertionError

    async def send(message: Message) -> None:
        messages.append(message)

    await app(scope, receive, send)
    return messages


async def _in_process(count: int) -> None:
    """Each layer's path ``count`` times through the portal's ASGI app built in this process
    (no server, no wrk, one request at a time): the process's CPU time (every thread's) per
    request. Steadier than the server's figures on a shared machine; no server's own cost."""
    from portal import serve as portal_serve
    from portal.provider.platform.sessions import COOKIE_NAME

    with socket.create_server(("127.0.0.1", 0)) as internal:
        module = portal_serve._load_app(0, internal.getsockname()[1], frontend=False)
    _add_routes(module)
    app = module.app()
    login = [(b"content-type", b"application/json")]
    answer = await _call(app, "/provider/login", login, "POST", login_body(ALICE).content)
    cookies = [v for k, v in answer[0]["headers"] if k == b"set-cookie"]
    cookie = next(v.split(b";")[0] for v in cookies if v.startswith(COOKIE_NAME.encode()))
    print(f"`python -m bench.floor --layers --in-process {count}`: CPU time of the process "
          "per request\n")  # fmt: skip
    print("| Layer | path | CPU ms per request | added |\n|---|---|--:|--:|")
    figures: dict[str, float] = {}
    for layer in LAYERS[1:]:  # the first answers before the app, which this calls directly
        headers = [(b"cookie", cookie)] if layer.signed_in else []
        for _ in range(min(count, 200)):
            answer = await _call(app, layer.path, headers)
        if answer[0]["status"] != 200:
            raise RuntimeError(f"{layer.path} answered {answer[0]['status']}")
        started = time.process_time()
        for _ in range(count):
            await _call(app, layer.path, headers)
        figures[layer.path] = (time.process_time() - started) * 1000 / count
        base = figures.get(layer.base) if layer.base else None
        added = f"{figures[layer.path] - base:+.3f}" if base is not None else ""
        print(f"| {layer.name} | `{layer.path}` | {figures[layer.path]:.3f} | {added} |",
              flush=True)  # fmt: skip


def measure_in_process(count: int) -> None:
    asyncio.run(_in_process(count))


def serve(argv: list[str]) -> int:
    """The production server with the temporary routes (run by ``_portal``)."""
    from portal import serve as portal_serve

    return portal_serve.main(argv, prepare=_add_routes)


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1:]))
