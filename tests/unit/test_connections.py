"""The per-process cache of provider clients: with several workers, the one that rotated the
provider session (impersonation) stores the new cookie, and every other worker's cached client
must send that one from its next call on, not the closed session's. The clients share one pool
of connections: many sessions hold no socket of their own, and a client leaving the cache
finishes the download it may still be serving."""

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from portal import connections
from portal.connections import closings_done, forget_client, session_client
from portal.session_store import PortalSession


def test_a_cached_client_follows_the_cookie_stored_by_another_worker() -> None:
    token = "token-of-a-rotated-session"
    session = PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": "before"})
    cached = session_client(token, session, "en")
    try:
        assert cached.cookies() == {"PATCHBAY_PROVIDER_SESSION": "before"}

        # The worker that rotated the provider session saved the new cookie.
        session.provider_cookies = {"PATCHBAY_PROVIDER_SESSION": "after"}
        again = session_client(token, session, "fr")

        assert again.cookies() == cached.cookies() == {"PATCHBAY_PROVIDER_SESSION": "after"}
        assert (cached.language, again.language) == ("en", "fr")
    finally:
        asyncio.run(forget_client(token))


def test_a_cached_client_keeps_its_jar_when_nothing_changed() -> None:
    token = "token-of-a-steady-session"
    session = PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": "same"})
    try:
        first = session_client(token, session, "en")
        again = session_client(token, session, "fr")
        assert first.cookies() == {"PATCHBAY_PROVIDER_SESSION": "same"}

        # Both are views of the one cached client: one jar.
        again.clear_cookies()
        assert first.cookies() == {}
    finally:
        asyncio.run(forget_client(token))


class CountingServer:
    """A real HTTP/1.1 server with keep-alive that counts the connections still open."""

    BODY = b'{"@id": "/api/ping"}'

    def __init__(self) -> None:
        self.open_connections = 0
        self.file = b"x" * 1_000_000
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/provider"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open_connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                body = self.file if b" /provider/api/file " in head else self.BODY
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    + f"Content-Length: {len(body)}\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.open_connections -= 1
            writer.close()

    async def until_open(self, count: int) -> int:
        """The open connections once they come down to ``count`` (or after 5 s)."""
        for _ in range(100):
            if self.open_connections <= count:
                break
            await asyncio.sleep(0.05)
        return self.open_connections


# The server must run on the test's own event loop (fixtures default to the session's).
@pytest_asyncio.fixture(loop_scope="function")
async def server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[CountingServer]:
    """A provider on a real socket, a fresh cache of at most 4 clients."""
    provider = CountingServer()
    url = await provider.start()
    monkeypatch.setattr(connections, "provider_base_url", lambda: url)
    monkeypatch.setattr(connections, "_clients", OrderedDict())
    monkeypatch.setattr(connections, "_MAX_CACHED_CLIENTS", 4)
    yield provider
    for token in list(connections._clients):
        await forget_client(token)
    await provider.stop()


def _session() -> PortalSession:
    return PortalSession(user_id="u1", provider_cookies={"PATCHBAY_PROVIDER_SESSION": "s"})


async def test_many_sessions_share_one_pool_of_connections(server: CountingServer) -> None:
    clients = []
    for number in range(40):
        client = session_client(f"session-{number}", _session(), "en")
        await client.request("GET", "/api/ping")
        clients.append(client)
    await closings_done()

    # One after the other, forty sessions reused one kept-alive connection.
    assert server.open_connections == 1
    assert [client.is_closed for client in clients] == [True] * 36 + [False] * 4

    # At once, they open what the pool allows and keep some for the next calls.
    await asyncio.gather(*(client.request("GET", "/api/ping") for client in clients[-4:]))
    assert 1 <= server.open_connections <= 4
    # Sessions ending leave the pool to the others.
    for number in range(36, 40):
        await forget_client(f"session-{number}")
    again = session_client("session-new", _session(), "en")
    await again.request("GET", "/api/ping")
    assert 1 <= server.open_connections <= 4


async def test_an_evicted_client_finishes_its_download_before_closing(
    server: CountingServer,
) -> None:
    downloading = session_client("downloading", _session(), "en")
    answer = await downloading.open_stream("/api/file")

    for number in range(4):  # pushes the downloading session out of the cache
        await session_client(f"session-{number}", _session(), "en").request("GET", "/api/ping")
    await closings_done()
    assert "downloading" not in connections._clients
    assert not downloading.is_closed

    received = b"".join([chunk async for chunk in answer.aiter_bytes()])
    await answer.aclose()

    assert received == server.file
    assert downloading.is_closed


class LanguageRecordingServer:
    """A real HTTP server that records each call's path and ``Accept-Language``, and answers
    ``/api/first`` only once two such calls have arrived: two tabs' calls overlap."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self._both_first_calls = asyncio.Event()
        self._server: asyncio.Server | None = None

    async def start(self) -> str:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/provider"

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # One call per connection: no idle connection is left to the pool when the test ends.
        head = (await reader.readuntil(b"\r\n\r\n")).decode().lower()
        path = head.split(" ", 2)[1].removeprefix("/provider")
        language = head.split("\r\naccept-language: ", 1)[1].split("\r\n", 1)[0]
        self.calls.append((path, language))
        if path == "/api/first":
            if [called for called, _ in self.calls].count(path) == 2:
                self._both_first_calls.set()
            await asyncio.wait_for(self._both_first_calls.wait(), 5)
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: 2\r\n\r\n{}"
        )
        await writer.drain()
        writer.close()


async def test_two_tabs_of_one_session_each_call_in_their_own_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 47, item 9a: one session, an English tab and a French tab whose calls overlap.
    Each tab's every call carries its own language, whatever the other tab asked for since."""
    provider = LanguageRecordingServer()
    url = await provider.start()
    monkeypatch.setattr(connections, "provider_base_url", lambda: url)
    monkeypatch.setattr(connections, "_clients", OrderedDict())

    async def tab(language: str) -> None:
        client = session_client("one-session", _session(), language)
        await client.request("GET", "/api/first")
        await client.request("GET", f"/api/second-{language}")

    try:
        await asyncio.gather(tab("en"), tab("fr"))
    finally:
        await forget_client("one-session")
        await provider.stop()

    assert sorted(provider.calls) == [
        ("/api/first", "en"),
        ("/api/first", "fr"),
        ("/api/second-en", "en"),
        ("/api/second-fr", "fr"),
    ]
