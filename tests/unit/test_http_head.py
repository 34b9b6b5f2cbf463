"""The request head bound of the production server's parser (``portal.http_head``): a head over
the bound is refused as h11 refused it, whole or in pieces, before the app sees it; a body in
the same read as its head is not counted; each request of a connection has the bound anew."""

import asyncio
from typing import Any

import pytest
from starlette.types import Message, Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.server import ServerState

from portal.http_head import BoundedHeadProtocol

BOUND = 64 * 1024


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written = b""
        self.closed = False
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written += bytes(data)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_protocol(self) -> Any:
        return self.protocol

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class Server:
    """One connection to ``BoundedHeadProtocol``; the app answers each request with the length
    of the body it read."""

    def __init__(self) -> None:
        self.requests = 0
        config = Config(
            self.app,
            interface="asgi3",
            lifespan="off",
            log_config=None,
            proxy_headers=False,
            h11_max_incomplete_event_size=BOUND,
        )
        config.load()
        self.state = ServerState()
        self.protocol = BoundedHeadProtocol(config=config, server_state=self.state, app_state={})
        self.transport = Transport()
        self.transport.set_protocol(self.protocol)
        self.protocol.connection_made(self.transport)

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.requests += 1
        body = b""
        while True:
            message: Message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        length = str(len(body)).encode()
        headers = [(b"content-length", str(len(length)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": length})

    async def feed(self, *chunks: bytes) -> bytes:
        for chunk in chunks:
            self.protocol.data_received(chunk)
            if self.transport.closed:
                break
        for _ in range(100):
            await asyncio.sleep(0)
        for task in list(self.state.tasks):
            await task
        return self.transport.written


def _get(header_bytes: int) -> bytes:
    return b"GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * header_bytes + b"\r\n\r\n"


@pytest.mark.parametrize("piece", [None, 1024])
async def test_a_head_over_the_bound_is_refused_before_the_app(piece: int | None) -> None:
    server = Server()
    request = _get(BOUND + 10)
    chunks = [request[i : i + piece] for i in range(0, len(request), piece)] if piece else [request]
    written = await server.feed(*chunks)
    assert written.startswith(b"HTTP/1.1 400 ")
    assert server.transport.closed
    assert server.requests == 0


async def test_a_body_that_comes_with_its_head_is_not_counted_as_head() -> None:
    server = Server()
    body = b"b" * (3 * BOUND)
    head = b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body)
    written = await server.feed(head + body)
    assert written.startswith(b"HTTP/1.1 200 ")
    assert written.endswith(str(len(body)).encode())


async def test_each_request_of_a_connection_has_the_bound_anew() -> None:
    server = Server()
    for count in range(1, 4):
        written = await server.feed(_get(BOUND * 2 // 3))
        assert written.count(b"HTTP/1.1 200 ") == count
    assert not server.transport.closed
