"""Delivering a message: through the SMTP server of ``SMTP_URL``, or into an ``.eml`` file.

Without ``SMTP_URL`` every message lands in ``MAIL_DIR`` as ``{timestamp}-{recipient}.eml`` and
its path is logged, so a newcomer running the portal can open a reset link without a mail server.
"""

import logging
import os
import re
import smtplib
import ssl
from dataclasses import dataclass
from datetime import UTC, datetime
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parseaddr
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from portal.settings import get_settings

logger = logging.getLogger(__name__)

DEFAULT_PORTS = {"smtp": 25, "smtps": 465, "smtp+starttls": 587}
SMTP_TIMEOUT_SECONDS = 30
# Anything but these in an address becomes "_", so a recipient can never name another path.
_UNSAFE_FILENAME_CHARACTERS = re.compile(r"[^A-Za-z0-9@._+-]")


@dataclass(frozen=True)
class SmtpServer:
    scheme: str
    host: str
    port: int
    username: str | None
    password: str | None


def parse_smtp_url(url: str) -> SmtpServer:
    """``smtp://``, ``smtps://`` (TLS from the start) or ``smtp+starttls://``, with an optional
    ``user:password@`` (percent-encoded) and port."""
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(
            f"SMTP_URL must start with smtp://, smtps:// or smtp+starttls://, not {parts.scheme!r}"
        )
    if not parts.hostname:
        raise ValueError("SMTP_URL names no host")
    return SmtpServer(
        scheme=parts.scheme,
        host=parts.hostname,
        port=parts.port or DEFAULT_PORTS[parts.scheme],
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )


def _tls_context() -> ssl.SSLContext:
    """Made once per place the certificates are read from (``SSL_CERT_FILE``,
    ``SSL_CERT_DIR``): loading them took 66 ms, more than sending a mail."""
    return _context_for(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@cache
def _context_for(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    return ssl.create_default_context()


def send_smtp(server: SmtpServer, message: Message) -> None:
    client: smtplib.SMTP
    if server.scheme == "smtps":
        client = smtplib.SMTP_SSL(
            server.host, server.port, timeout=SMTP_TIMEOUT_SECONDS, context=_tls_context()
        )
    else:
        client = smtplib.SMTP(server.host, server.port, timeout=SMTP_TIMEOUT_SECONDS)
    with client:
        if server.scheme == "smtp+starttls":
            client.starttls(context=_tls_context())
        if server.username:
            client.login(server.username, server.password or "")
        client.send_message(message)


def eml_filename(recipient: str, at: datetime) -> str:
    address = parseaddr(recipient)[1] or recipient
    safe = _UNSAFE_FILENAME_CHARACTERS.sub("_", address)[:200]
    return f"{at:%Y%m%dT%H%M%S%f}-{safe}.eml"


def write_eml(directory: Path, message: Message) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / eml_filename(str(message["To"]), datetime.now(UTC))
    # Written aside and renamed: whoever watches the folder (a test, a mail pick-up) sees a
    # message whole or not at all, never the empty file of one being written.
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(message.as_bytes())
    partial.replace(path)
    return path


def _readable(header: object) -> str:
    """A header as it reads, its encoded words (RFC 2047) decoded."""
    return str(make_header(decode_header(str(header or ""))))


def deliver(message: Message) -> None:
    """Send ``message`` now, by the configured means."""
    settings = get_settings()
    subject, recipient = _readable(message["Subject"]), _readable(message["To"])
    if settings.smtp_url:
        server = parse_smtp_url(settings.smtp_url)
        send_smtp(server, message)
        logger.info("Mail %r sent to %s through %s", subject, recipient, server.host)
        return
    path = write_eml(settings.mail_dir, message)
    logger.info("Mail %r to %s written to %s", subject, recipient, path)
