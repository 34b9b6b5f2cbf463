"""Request ids and timing: one ASGI middleware under the portal's edge and the provider's.

Each HTTP request gets its id, kept from the caller's ``X-Request-ID`` when it looks like one
(a proxy's, the portal's for the provider) and made here otherwise; it is on every log line
written while the request runs and goes back in the answer's ``X-Request-ID``, with
``X-Served-By`` naming the instance. The request is
timed from its arrival to its last byte out, with its status and the bytes read and written. A
subclass adds its headers (``add_headers``) and says what the measure is for (``observe``):
the edge's access line, the provider's metrics by route. Plain Starlette: no Reflex, so the
provider may use it.
"""

import time

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from portal.logs import REQUEST_ID_HEADER, accept_request_id, request_id_var
from portal.settings import get_settings

SERVED_BY_HEADER = "X-Served-By"


class TimedRequests:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.instance = get_settings().effective_instance_name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = accept_request_id(Headers(scope=scope).get(REQUEST_ID_HEADER))
        # Not reset at the end: the provider's unexpected-error handler, which Starlette runs
        # outside every middleware, still logs and answers with it. Each request is its own task.
        request_id_var.set(request_id)
        started = time.perf_counter()
        status = 500
        received = sent = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
            return message

        async def send_with_headers(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = MutableHeaders(scope=message)
                headers[REQUEST_ID_HEADER] = request_id
                headers[SERVED_BY_HEADER] = self.instance
                self.add_headers(headers)
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, counting_receive, send_with_headers)
        finally:
            self.observe(scope, status, time.perf_counter() - started, received, sent)

    def add_headers(self, headers: MutableHeaders) -> None:
        """Adds to an answer's headers, as it starts, what every answer gets besides its
        request id and instance."""

    def observe(self, scope: Scope, status: int, elapsed: float, received: int, sent: int) -> None:
        """One request answered: its status (500 when no answer started), its time in seconds
        and the bytes of its body and of its answer's."""
