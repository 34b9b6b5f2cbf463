"""A spare port on the loopback for the servers the tests start themselves (the portal, the
provider, SMTP, Redis, nginx)."""

import socket


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
