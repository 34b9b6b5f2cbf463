"""The production server's listening sockets: connections that send each write at once
(docs/decisions/no-delay.md), spread among the workers by the kernel, and a port another server
holds refused rather than shared (docs/decisions/one-listener-per-worker.md)."""

import socket
import sys
from contextlib import ExitStack

import pytest

from portal import serve


def test_the_connections_a_listener_accepts_send_at_once() -> None:
    with (
        serve._listener(("127.0.0.1", 0)) as listener,
        socket.create_connection(listener.getsockname()),
    ):
        accepted, _ = listener.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT spreads on Linux")
def test_connections_opened_together_reach_every_worker() -> None:
    with ExitStack() as stack:
        listeners = serve._public_listeners(("127.0.0.1", 0), 2)
        for listener in listeners:
            stack.enter_context(listener)
            listener.setblocking(False)
        (port,) = {listener.getsockname()[1] for listener in listeners}
        # Forty at once, as a proxy or a load generator opens them: on one shared socket, the
        # worker that woke first took them all.
        for _ in range(40):
            stack.enter_context(socket.create_connection(("127.0.0.1", port)))
        taken = [_accept_all(listener, stack) for listener in listeners]
        assert sum(taken) == 40
        assert min(taken) >= 5, taken
        for listener in listeners:
            assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_port_another_server_holds_is_refused() -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(s) for s in serve._public_listeners(("127.0.0.1", 0), 2)]
        with pytest.raises(OSError):
            serve._public_listeners(held[0].getsockname(), 2)


def _accept_all(listener: socket.socket, stack: ExitStack) -> int:
    count = 0
    while True:
        try:
            accepted, _ = listener.accept()
        except BlockingIOError:
            return count
        stack.enter_context(accepted)
        count += 1
