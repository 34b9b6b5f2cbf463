"""Reading the provider's mail in tests: a real SMTP server (aiosmtpd) and the ``.eml`` files."""

import email
import re
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.policy import default
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from portal.provider.platform.mail import wait_for_deliveries
from tests.ports import free_port


def parse(raw: bytes) -> EmailMessage:
    message = email.message_from_bytes(raw, policy=default)
    assert isinstance(message, EmailMessage)
    return message


@dataclass
class Sink:
    """What the SMTP server received: envelope recipients and messages."""

    messages: list[tuple[list[str], EmailMessage]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append((list(envelope.rcpt_tos), parse(envelope.original_content)))
        return "250 Message accepted for delivery"


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made by OpenSSL's command line."""
    certificate, key = directory / "smtp-cert.pem", directory / "smtp-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    return certificate, key


@contextmanager
def smtp_server(
    login: tuple[str, str] | None = None,
    tls: str | None = None,
    certificate: tuple[Path, Path] | None = None,
    port: int | None = None,
) -> Iterator[tuple[Sink, int]]:
    """An SMTP server on ``port`` (a free local one by default); with ``login``, AUTH is
    required (over plain TCP unless TLS is on, as a local relay may allow). ``tls`` is
    ``"smtps"`` (TLS from the first byte) or ``"starttls"`` (required before anything else),
    with ``certificate``."""
    sink = Sink()
    options: dict[str, Any] = {}
    if tls is not None:
        assert certificate is not None
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*certificate)
        if tls == "smtps":
            options["ssl_context"] = context
        else:
            options.update(tls_context=context, require_starttls=True)
    if login is not None:

        def authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any):
            ok = (
                isinstance(data, LoginPassword)
                and (
                    data.login.decode(),
                    data.password.decode(),
                )
                == login
            )
            return AuthResult(success=ok)

        # aiosmtpd counts only STARTTLS as TLS for AUTH, not TLS from the first byte (smtps).
        require_tls = tls == "starttls"
        options.update(authenticator=authenticate, auth_required=True, auth_require_tls=require_tls)
    port = port or free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def empty(directory: Path) -> None:
    """Forget the mail of earlier tests (the directory is shared by the test session)."""
    wait_for_deliveries()
    for path in directory.glob("*.eml"):
        path.unlink()


def eml_messages(directory: Path, recipient: str | None = None) -> list[EmailMessage]:
    """The ``.eml`` files of ``directory`` (oldest first), for one recipient if given."""
    wait_for_deliveries()
    paths = sorted(directory.glob("*.eml"))
    if recipient is not None:
        paths = [path for path in paths if path.name.endswith(f"-{recipient}.eml")]
    return [parse(path.read_bytes()) for path in paths]


def body(message: Message, subtype: str) -> str:
    assert isinstance(message, EmailMessage)
    part = message.get_body(preferencelist=(subtype,))
    assert part is not None, f"no text/{subtype} part"
    assert isinstance(part, EmailMessage)
    return str(part.get_content())


def link_token(message: Message, path: str) -> str:
    """The token of the portal link to ``path`` in the plain-text part."""
    found = re.search(re.escape(path) + r"\?token=([A-Za-z0-9_-]+)", body(message, "plain"))
    assert found, f"no {path} link in the message"
    return found.group(1)
