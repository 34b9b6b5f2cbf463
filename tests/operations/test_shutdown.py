"""Graceful shutdown (issues 17 and 56): SIGTERM to the main process (what `docker stop` sends) or
to the whole process group (systemd's default) lets every request in progress finish with its
answer, closes the open websockets without telling their Socket.IO clients to stay away (so they
reconnect, behind the proxy to another instance), and the instance exits 0.

The instance is the production server (`python -m portal.serve`) serving the backend only, as
the Dockerfile runs it but for the built pages, a mount; ready in seconds. Its own SQLite
database, state directory and no Redis, so one worker (the supervisor's part with several is
tests/deployment/test_drain.py's). No drain period here (SHUTDOWN_DRAIN_SECONDS=0):
what the drain adds behind a proxy is tests/deployment/test_drain.py. The websocket client
below is not Reflex's page: asked to reconnect, it does not, and the worker closes it.

The requests in progress are wrong-password logins (argon2, slow on purpose). Half of them are
sent whole before the signal (running or queued when it comes, unless the machine is fast); the
other half have sent their headers and the start of their body, and send the rest only after it:
in progress on the server however fast the machine is. A request that only reaches the instance
after the signal may be cut; docs/decisions/operations-startup.md says when and why.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.typing import Origin

from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
LOGINS = 12
STARTUP_SECONDS = 120
EXIT_SECONDS = 20
# How long a login may wait for its answer on a loaded machine (not a speed requirement).
ANSWER_SECONDS = 60
# Between the last byte sent before the signal and the signal: the workers have taken every
# connection in hand by then (a connection still in the kernel's queue is not yet a request).
SETTLE_SECONDS = 0.5
NAMESPACE = "/_event"


@dataclass
class Instance:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@pytest.fixture
def instance(tmp_path: Path) -> Iterator[Instance]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "ENVIRONMENT": "development",
        "PORT": str(port),
        "PORTAL_PUBLIC_URL": url,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'provider.db'}",
        "REDIS_URL": "",
        "PORTAL_SESSION_DB": str(tmp_path / "sessions.db"),
        "DATA_DIR": str(tmp_path / "data"),
        "MAIL_DIR": str(tmp_path / "mail"),
        "SMTP_URL": "",
        "SEED_DEMO": "false",
        "LOG_FORMAT": "text",
        "REFLEX_STATES_WORKDIR": str(tmp_path / "states"),
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        "SHUTDOWN_DRAIN_SECONDS": "0",
    }
    env.pop("PATCHBAY_METRICS_DIR_READY", None)
    log = tmp_path / "portal.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "portal.serve", "--no-frontend", "--port", str(port),
             "--host", "127.0.0.1"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    running = Instance(url, process, log)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert process.poll() is None, running.log_tail()
            assert time.monotonic() < deadline, f"no answer in time:\n{running.log_tail()}"
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        yield running
    finally:
        if process.poll() is None:  # the test failed before the instance stopped
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class Login:
    """A wrong-password login whose first ``split`` bytes are sent before ``signal_sent`` is
    set and the rest after it (all of it before, without a split)."""

    def __init__(self, number: int, signal_sent: asyncio.Event, *, split: bool) -> None:
        body = json.dumps({"username": f"nobody{number}@example.test", "password": "wrong"})
        self.body = body.encode()
        self.split = len(self.body) // 2 if split else len(self.body)
        self.signal_sent = signal_sent
        self.sent_before_signal = asyncio.Event()

    async def _body(self) -> AsyncIterator[bytes]:
        yield self.body[: self.split]
        # The transport asks for the next part once the first one is written.
        self.sent_before_signal.set()
        if self.split < len(self.body):
            await self.signal_sent.wait()
            yield self.body[self.split :]

    async def send(self, client: httpx.AsyncClient) -> str:
        try:
            response = await client.post(
                "/provider/login",
                content=self._body(),
                headers={"Content-Type": "application/json", "Content-Length": str(len(self.body))},
            )
        except httpx.HTTPError as error:
            return f"{type(error).__name__}: {error}"
        return str(response.status_code)


async def _open_socket(url: str) -> websockets.ClientConnection:
    """A Socket.IO connection to Reflex's namespace, as the pages open it."""
    connection = await websockets.connect(
        f"{url.replace('http', 'ws', 1)}{NAMESPACE}/?EIO=4&transport=websocket", origin=Origin(url)
    )
    assert str(await connection.recv()).startswith("0")
    await connection.send(f"40{NAMESPACE},")
    assert str(await connection.recv()).startswith(f"40{NAMESPACE},")
    return connection


async def _messages_until_closed(connection: websockets.ClientConnection) -> list[str] | None:
    """What the server sent until it closed the websocket; None if it stayed open."""
    messages = []
    try:
        async with asyncio.timeout(EXIT_SECONDS):
            while True:
                message = str(await connection.recv())
                if message == "2":  # Engine.IO ping
                    await connection.send("3")
                messages.append(message)
    except websockets.ConnectionClosed:
        return messages
    except TimeoutError:
        return None


@pytest.mark.parametrize("group", [False, True], ids=["main process", "process group"])
async def test_sigterm_lets_requests_in_progress_finish_and_closes_websockets(
    instance: Instance, group: bool
) -> None:
    websocket = await _open_socket(instance.url)
    signal_sent = asyncio.Event()
    logins = [Login(number, signal_sent, split=number % 2 == 1) for number in range(LOGINS)]
    async with httpx.AsyncClient(base_url=instance.url, timeout=ANSWER_SECONDS) as client:
        answers = [asyncio.create_task(login.send(client)) for login in logins]
        async with asyncio.timeout(ANSWER_SECONDS):
            for login in logins:
                await login.sent_before_signal.wait()
        await asyncio.sleep(SETTLE_SECONDS)
        if group:
            os.killpg(instance.process.pid, signal.SIGTERM)
        else:
            instance.process.send_signal(signal.SIGTERM)
        signal_sent.set()
        statuses = await asyncio.gather(*answers)
    socket_messages = await _messages_until_closed(websocket)
    try:
        await asyncio.to_thread(instance.process.wait, EXIT_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {EXIT_SECONDS} s after SIGTERM:\n{instance.log_tail()}")

    assert statuses == ["401"] * LOGINS, instance.log_tail()
    # Closed, and no Socket.IO disconnect ("41"), after which a client would not reconnect.
    assert socket_messages is not None, "the websocket stayed open"
    assert not [message for message in socket_messages if message.startswith("41")]
    assert instance.process.returncode == 0, instance.log_tail()
