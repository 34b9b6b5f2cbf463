"""The production server: the portal's Reflex app on worker processes that drain before they stop.

``python -m portal.serve`` serves what ``reflex run --env prod --single-port`` served (issue 56;
docs/decisions/graceful-drain.md): the built pages, the websocket, the document routes and the
embedded provider on one port. Reflex's production runner serves with Granian, whose workers
stop at once on SIGTERM and, as they stop, close connections they have accepted without
answering them (a POST through a proxy is then lost); its Rust worker leaves no way to order
that. Here Reflex's app is started as its runner starts it (imported in this process, its
start-up objects collected and frozen, the workers forked from it, each calling the app's
factory) and served by Uvicorn, a server Reflex also runs, whose listening socket and shutdown
are Python's: each worker drains, stops accepting, lets what it holds finish, then stops
(``portal.drain``).

The pages are those ``reflex export --frontend-only --no-zip`` built (``make build``, the
Dockerfile): nothing is compiled or written at start.

This process binds the port, starts the workers and forks a new one if a worker dies. On
SIGTERM or SIGINT it lets go of the listening socket (the workers hold it) and passes the signal
on: SIGTERM drains for ``SHUTDOWN_DRAIN_SECONDS`` first, SIGINT (Ctrl-C) does not. It exits 0
once every worker has stopped cleanly, 1 otherwise.
"""

import argparse
import asyncio
import functools
import gc
import logging
import multiprocessing
import os
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import FrameType, ModuleType
from typing import cast

import uvicorn
from reflex import constants
from reflex.config import get_config
from reflex.environment import environment

from portal import drain
from portal.http_head import BoundedHeadProtocol

logger = logging.getLogger("portal.serve")

# A worker that dies sooner than this after its start is not started again: it would only die
# again (a configuration error, a database that refuses the migrations).
CRASH_LOOP_SECONDS = 10.0
# Above Uvicorn's default of 5 s and above the idle time after which proxies drop a connection
# (nginx 60 s): the proxy closes an idle connection first, never the instance while the proxy
# sends a request on it.
KEEP_ALIVE_SECONDS = 75
# Request line and headers together (portal.http_head); the portal's own limits
# (HEADERS_MAX_BYTES, QUERY_MAX_BYTES) answer below this with their own message.
REQUEST_HEAD_MAX_BYTES = 64 * 1024
BACKLOG = 2048


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    from portal.settings import get_settings

    parser = argparse.ArgumentParser(
        prog="python -m portal.serve", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--host", help="address to listen on (default: Reflex's backend_host)")
    parser.add_argument("--port", type=int, default=get_settings().port, help="default: PORT")
    parser.add_argument(
        "--workers",
        type=int,
        help="worker processes (default: GRANIAN_WORKERS, or one per core; 1 without REDIS_URL)",
    )
    parser.add_argument(
        "--no-frontend",
        action="store_true",
        help="serve the backend only: the built pages are served elsewhere, or not needed",
    )
    return parser.parse_args(argv)


def _load_app(port: int, internal_port: int, frontend: bool) -> ModuleType:
    """The app's module, imported as Reflex's production runner imports it before forking."""
    # What Reflex's runner sets before it serves a production backend.
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)
    environment.REFLEX_MOUNT_FRONTEND_COMPILED_APP.set(frontend)
    # Its config's ports, over rxconfig.py's: the pages', and where the backend reaches itself
    # (the portal calls its embedded provider there: portal.connections.provider_base_url).
    environment.REFLEX_FRONTEND_PORT.set(port)
    environment.REFLEX_BACKEND_PORT.set(internal_port)
    from reflex.utils import prerequisites

    web = prerequisites.get_web_dir().absolute()
    if frontend and not (web / "build" / "client" / "index.html").exists():
        sys.exit(f"The production pages are not built in {web}: run `make build` first.")
    if web.exists() and not os.access(web, os.W_OK):
        environment.REFLEX_WEB_WORKDIR.set(_writable_web_dir(web))
    return prerequisites.get_app()


def _writable_web_dir(web: Path) -> Path:
    """Reflex writes a marker into its web directory each time the app starts (that the app
    takes uploads); on a read-only root filesystem (the image) a directory in TMPDIR, a tmpfs,
    stands in for it, the built pages linked in."""
    stand_in = Path(tempfile.mkdtemp(prefix="patchbay-web-"))
    (stand_in / "build").symlink_to(web / "build")
    return stand_in


def _worker_count(requested: int | None) -> int:
    from portal.settings import backend_workers, get_settings

    if not get_settings().redis_url:
        # The tabs' states live in each worker's memory without Redis: one worker holds them.
        return 1
    return requested or int(os.environ.get("GRANIAN_WORKERS") or backend_workers())


def main(argv: list[str] | None = None, prepare: Callable[[ModuleType], None] | None = None) -> int:
    """Serves the portal; ``prepare`` is given the app's module once imported, before the workers
    start (``bench.floor.layers`` adds its temporary routes there)."""
    arguments = _arguments(argv)
    # The portal's calls to its embedded provider go through a port of their own on the
    # loopback, which a stopping worker keeps open until it exits: the events it lets finish
    # still reach their provider once the public port accepts nothing.
    internal = _listener(("127.0.0.1", 0))
    internal_port = internal.getsockname()[1]
    module = _load_app(arguments.port, internal_port, frontend=not arguments.no_frontend)
    if prepare is not None:
        prepare(module)
    count = _worker_count(arguments.workers)
    host = arguments.host or get_config().backend_host
    public = _public_listeners((host, arguments.port), count)
    # The workers start with the start-up objects already collected and frozen: the pages
    # they share stay shared (what Reflex's runner does before it forks Granian's workers).
    gc.collect()
    gc.freeze()
    logger.info("Serving on http://%s:%d with %d workers", host, arguments.port, count)
    return Supervisor(module, public, internal).run()


def _public_listeners(address: tuple[str, int], count: int) -> list[socket.socket]:
    """One listening socket per worker on ``address``, among which the kernel spreads the new
    connections (SO_REUSEPORT). On one socket shared by every worker, the worker whose event loop
    woke first took every connection waiting (asyncio accepts up to the backlog at a time): ten
    kept-alive connections opened together all went to one worker while the others idled
    (docs/decisions/one-listener-per-worker.md). Where the system does not spread them (not
    Linux), the workers share one socket."""
    if count == 1 or not sys.platform.startswith("linux"):
        return [_listener(address)] * count
    # Bound without SO_REUSEPORT first: a port that another server holds is refused, as it was,
    # rather than shared with it. This also picks the port when ``address`` asks for any (0).
    with _listener(address) as probe:
        port = probe.getsockname()[1]
    return [_listener((address[0], port), reuse_port=True) for _ in range(count)]


def _listener(address: tuple[str, int], reuse_port: bool = False) -> socket.socket:
    """A listening socket whose connections send each write at once (TCP_NODELAY, which the
    connections it accepts inherit). asyncio sets it itself only on sockets made for TCP by name,
    which ``socket.create_server``'s are not: a response's body then waited for the client's
    delayed acknowledgement of its head, 40 ms a request on a kept-alive connection
    (docs/decisions/no-delay.md)."""
    listener = socket.create_server(address, backlog=BACKLOG, reuse_port=reuse_port)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return listener


@dataclass(frozen=True)
class Listeners:
    """A worker's sockets: its own on the public port, and the internal one they all share."""

    public: socket.socket
    internal: socket.socket


class Supervisor:
    """Starts a worker on each of the ``public`` listeners (all sharing ``internal``) and passes
    them the signals to stop. A worker that dies is replaced on its listener, which this process
    keeps open meanwhile: the connections the kernel gave it wait for the new worker."""

    def __init__(
        self, module: ModuleType, public: list[socket.socket], internal: socket.socket
    ) -> None:
        self.module = module
        self.public = public
        self.internal = internal
        self.context = multiprocessing.get_context("fork")
        self.workers: dict[int, tuple[BaseProcess, float]] = {}
        self.stop_signal: int | None = None
        self.failed = False

    def run(self) -> int:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)
        for slot in range(len(self.public)):
            self._start(slot)
        while self.workers:
            ended = wait([process.sentinel for process, _ in self.workers.values()], timeout=1.0)
            for slot, (process, _) in list(self.workers.items()):
                if process.sentinel in ended:
                    self._exited(slot)
            if self.stop_signal is not None:
                # Again each second: a worker that was still starting may have missed it.
                self._signal_workers(self.stop_signal)
        logger.info("Stopped")
        return 1 if self.failed else 0

    def _start(self, slot: int) -> None:
        listeners = Listeners(self.public[slot], self.internal)
        others = [listener for listener in self.public if listener is not listeners.public]
        process = self.context.Process(
            target=_run_worker,
            args=(self.module, listeners, others),
            name=f"portal-worker-{slot + 1}",
        )
        process.start()
        self.workers[slot] = (process, time.monotonic())

    def _exited(self, slot: int) -> None:
        process, started = self.workers.pop(slot)
        process.join()
        if self.stop_signal is not None:
            if process.exitcode != 0:
                logger.error("Worker %s exited with %s", process.pid, process.exitcode)
                self.failed = True
            return
        logger.error("Worker %s exited unexpectedly with %s", process.pid, process.exitcode)
        if time.monotonic() - started < CRASH_LOOP_SECONDS:
            logger.error("It died within %d s of its start: stopping", CRASH_LOOP_SECONDS)
            self.failed = True
            self._on_signal(signal.SIGINT, None)
        else:
            self._start(slot)

    def _on_signal(self, sig: int, _frame: FrameType | None) -> None:
        if self.stop_signal is None:
            self.stop_signal = sig
            # From now on only the workers hold the sockets: once the last one stops accepting,
            # the port refuses connections instead of queueing them for no one.
            for listener in [*self.public, self.internal]:
                listener.close()
        self._signal_workers(self.stop_signal)

    def _signal_workers(self, sig: int) -> None:
        for process, _ in self.workers.values():
            if process.pid is not None and process.is_alive():
                os.kill(process.pid, sig)


class _WithoutColors(logging.Filter):
    """Uvicorn gives some records a ``color_message`` with terminal escapes: not for the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)
        return True


def _run_worker(module: ModuleType, listeners: Listeners, others: list[socket.socket]) -> None:
    # The other workers' sockets came with the fork. Held here, a socket its worker closes as
    # it stops would stay open, and the connections the kernel still gave it would wait for no
    # one until this worker exits (then be reset: a proxy's 502).
    for listener in others:
        listener.close()
    # The supervisor's handlers came with the fork. The worker ignores the stop signals until
    # its server takes them (the supervisor repeats them meanwhile) and once it has stopped
    # (Uvicorn then puts back the handlers it found).
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN)
    from portal.settings import get_settings

    settings = get_settings()
    logging.getLogger("uvicorn.error").addFilter(_WithoutColors())
    config = uvicorn.Config(
        module.app(),  # Reflex's app is a factory of its ASGI app, called in each worker
        lifespan="on",
        loop="asyncio",
        # httptools, with the head bounded as h11 bounded it (docs/decisions/http-parser.md).
        http=BoundedHeadProtocol,
        ws="wsproto",
        # A zlib context per direction and per tab costs more memory than the bytes it saves
        # (docs/decisions/backend-server.md).
        ws_per_message_deflate=False,
        # The portal reads X-Forwarded-For itself (portal.edge): the server leaves the client's
        # address and scheme as the connection gives them.
        proxy_headers=False,
        server_header=False,
        access_log=False,  # the edge logs one line per request (docs/decisions/operations-logs.md)
        log_config=None,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # The grace period is drain.finish's; what is left after it is cut at once.
        timeout_graceful_shutdown=1,
        # h11's setting, which BoundedHeadProtocol reads as its bound.
        h11_max_incomplete_event_size=REQUEST_HEAD_MAX_BYTES,
    )
    server = DrainingServer(
        config,
        listeners.public,
        module.tab_events,
        drain_seconds=settings.shutdown_drain_seconds,
        grace_seconds=settings.shutdown_grace_seconds,
    )
    # The public listener first: DrainingServer stops accepting on servers[0] only.
    server.run(sockets=[listeners.public, listeners.internal])


class DrainingServer(uvicorn.Server):
    """Uvicorn's server, stopped through the phases of ``portal.drain`` instead of at once."""

    def __init__(self, config: uvicorn.Config, listener: socket.socket, work: drain.EventWork,
                 drain_seconds: float, grace_seconds: float) -> None:  # fmt: skip
        super().__init__(config)
        self.listener = listener
        self.work = work
        self.drain_seconds = drain_seconds
        self.grace_seconds = grace_seconds
        self.supervisor = os.getppid()
        self._stopping: asyncio.Task[None] | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # A signal handler, run between two steps of the event loop's thread.
        if not self.started:  # nothing served yet, nothing to drain
            self.should_exit = True
            return
        drain_seconds = self.drain_seconds if sig == signal.SIGTERM else 0.0
        asyncio.get_running_loop().call_soon_threadsafe(self._begin_stop, drain_seconds)

    def _begin_stop(self, drain_seconds: float) -> None:
        # Repeated signals (the process group's and the supervisor's copy) start one stop.
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop(drain_seconds))

    async def on_tick(self, counter: int) -> bool:
        if os.getppid() != self.supervisor:  # the supervisor was killed: stop, not linger
            self._begin_stop(0.0)
        return await super().on_tick(counter)

    async def _stop(self, drain_seconds: float) -> None:
        drain.worker.phase = drain.Phase.DRAINING
        logger.info("Stopping: /readyz answers 503, serving on for %g s", drain_seconds)
        await asyncio.sleep(drain_seconds)
        accepted = self._stop_accepting()
        drain.worker.phase = drain.Phase.CLOSING
        logger.info(
            "No longer accepting connections; %d requests in progress, %d tabs open",
            drain.worker.requests_in_progress,
            len(self.work.tabs()),
        )
        loop = asyncio.get_running_loop()
        # Uvicorn types its protocol class as a bare asyncio.Protocol; it takes these arguments.
        protocol_class = cast(Callable[..., asyncio.Protocol], self.config.http_protocol_class)
        protocol = functools.partial(
            protocol_class,
            config=self.config,
            server_state=self.server_state,
            app_state=self.lifespan.state,
        )
        for connection in accepted:
            await loop.connect_accepted_socket(protocol, connection)
        await drain.finish(self.work, time.monotonic() + self.grace_seconds)
        self.should_exit = True

    def _stop_accepting(self) -> list[socket.socket]:
        """Takes in whatever connection the kernel has completed on the public port, then
        closes it, with no await between: a connection is served or refused, never dropped.
        The internal port stays open until the worker stops."""
        accepted = []
        while True:
            try:
                connection, _ = self.listener.accept()
            except ConnectionAbortedError:  # reset by its client while it waited
                continue
            except (BlockingIOError, InterruptedError):
                break
            connection.setblocking(False)
            accepted.append(connection)
        self.servers[0].close()
        return accepted


if __name__ == "__main__":
    sys.exit(main())
