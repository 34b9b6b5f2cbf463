"""The production server's listening sockets hand out connections that send each write at once
(docs/decisions/no-delay.md): without TCP_NODELAY a response's body waited for the client's
delayed acknowledgement of its head, 40 ms a request on a kept-alive connection."""

import socket

from portal import serve


def test_the_connections_a_listener_accepts_send_at_once() -> None:
    with (
        serve._listener(("127.0.0.1", 0)) as listener,
        socket.create_connection(listener.getsockname()),
    ):
        accepted, _ = listener.accept()
        with accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
