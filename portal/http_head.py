"""Uvicorn's httptools protocol with the request head bounded (docs/decisions/http-parser.md).

Uvicorn's h11 protocol parses HTTP in Python: 0.08-0.10 ms of a worker's CPU per request, where
its httptools protocol (llhttp, in C) takes 0.02-0.03 ms. h11 bounds a request's head (its line
and headers) through ``h11_max_incomplete_event_size``: past it, a 400 and the connection
closed, before the head is held in memory whole. Uvicorn's httptools protocol has no such
bound, and a header is handed to Python only once whole, httptools gathering its pieces
meanwhile: one endless header would grow without end. This protocol feeds the parser at most
what is left of the bound while a head is being read (the parser's callbacks say where a head
starts and ends) and answers a longer head as h11 did, with the same setting.

Requests pipelined in one read: the bytes of a head that starts inside a piece fed for the one
before are not counted, so such a head may reach twice the bound.
"""

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

# Uvicorn's own answer to a head over h11's bound.
_REFUSAL = "Invalid HTTP request received."


class BoundedHeadProtocol(HttpToolsProtocol):
    def __init__(self, config: Config, server_state: ServerState, app_state: dict[str, Any],
                 _loop: asyncio.AbstractEventLoop | None = None) -> None:  # fmt: skip
        super().__init__(config, server_state, app_state, _loop)
        # The setting h11 reads; its own default when unset.
        self.head_max_bytes = config.h11_max_incomplete_event_size or 16 * 1024
        self.reading_head = True
        self.head_bytes = 0

    def data_received(self, data: bytes) -> None:
        while self.reading_head and data:
            room = self.head_max_bytes - self.head_bytes
            if room <= 0:
                self.logger.warning(_REFUSAL)
                self.send_400_response(_REFUSAL)
                return
            piece, data = data[:room], data[room:]
            self.head_bytes += len(piece)
            super().data_received(piece)
            # Refused, closed, or handed to the websocket protocol: the rest is not this one's.
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
        if data:
            super().data_received(data)

    def on_headers_complete(self) -> None:
        self.reading_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.reading_head = True
        self.head_bytes = 0
