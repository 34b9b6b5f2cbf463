"""A real HTTPS webhook receiver for the tests: a threaded HTTP server on 127.0.0.1 behind TLS,
with a certificate of its own certificate authority (trustme) for a host name the provider
tests resolve to it (or for 127.0.0.1 itself, as the browser tests' portal reaches it). It keeps
what it received and answers what the test scripted."""

import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import trustme

HOST = "hooks.receiver.test"


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: str


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b"ok"
    delay: float = 0
    headers: tuple[tuple[str, str], ...] = ()
    # Sent a byte at a time with this pause between them, after the headers.
    drip: float = 0


@dataclass
class Receiver:
    port: int
    ca_file: Path
    host: str = HOST
    received: list[Received] = field(default_factory=list)
    # The replies to the next requests, in order; then ``default``.
    script: list[Reply] = field(default_factory=list)
    default: Reply = field(default_factory=Reply)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, path: str = "/hook") -> str:
        return f"https://{self.host}:{self.port}{path}"

    def reply(self) -> Reply:
        with self.lock:
            return self.script.pop(0) if self.script else self.default


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = self.rfile.read(length).decode()
            with receiver.lock:
                receiver.received.append(
                    Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
            reply = receiver.reply()
            if reply.delay:
                time.sleep(reply.delay)
            try:
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.send_header("content-length", str(len(reply.body)))
                self.end_headers()
                if reply.drip:
                    for byte in reply.body:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(reply.drip)
                else:
                    self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
                pass  # the client gave up waiting (the timeout tests)

        def log_message(self, format: str, *args: object) -> None:
            return

    return Handler


@contextmanager
def https_receiver(directory: Path, host: str = HOST) -> Iterator[Receiver]:
    authority = trustme.CA()
    certificate = authority.issue_cert(host)
    ca_file = directory / "webhook-ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    certificate.configure_cert(context)
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    server.daemon_threads = True
    receiver = Receiver(port=server.server_address[1], ca_file=ca_file, host=host)
    server.RequestHandlerClass = _handler(receiver)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
