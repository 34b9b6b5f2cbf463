"""The e-mails of the browser tests: the portal sends them to a real SMTP server (aiosmtpd, in
this process), which writes each as an .eml file named as the portal names those it writes
without SMTP; find the newest one to a recipient and read the link it carries.

A message's moment is the UTC timestamp that starts its file name, written by the portal's clock:
the file's mtime comes from the kernel, which libfaketime does not move, so it cannot be compared
with this process's (moved) clock."""

import email
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from email.message import EmailMessage, Message
from email.policy import default
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

from portal.provider.platform.mail.transport import write_eml

LINK = re.compile(r"https?://\S+?/(?:reset-password|confirm-account)\?token=[\w\-.~%]+")


class MailDrop:
    """What the SMTP server does with a message it accepts: one .eml file in ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=default)
        assert isinstance(message, EmailMessage)
        write_eml(self.directory, message)
        return "250 Message accepted for delivery"


@contextmanager
def smtp_server(directory: Path, port: int) -> Iterator[str]:
    """A local SMTP server on ``port`` that drops each message in ``directory``; its URL."""
    controller = Controller(MailDrop(directory), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


def text_of(message: Message) -> str:
    """The plain-text part of a message."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                return payload.decode(part.get_content_charset() or "utf-8")
    return ""


def written_at(path: Path) -> float:
    """When the portal wrote a message, as a ``time.time()``, from its file name
    (``{%Y%m%dT%H%M%S%f}-{recipient}.eml``)."""
    stamp = path.name.split("-", 1)[0]
    return datetime.strptime(stamp, "%Y%m%dT%H%M%S%f").replace(tzinfo=UTC).timestamp()


def latest_mail_to(mail_dir: Path, recipient: str, since: float, timeout: float = 20) -> Message:
    """The newest message to ``recipient`` written after ``since`` (a ``time.time()``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted(
            (path for path in mail_dir.glob(f"*-{recipient}.eml") if written_at(path) >= since),
            key=lambda path: path.name,
        )
        if found:
            return email.message_from_bytes(found[-1].read_bytes())
        time.sleep(0.25)
    raise AssertionError(f"No mail to {recipient} in {mail_dir}")


def link_in(message: Message) -> str:
    """The portal link of a reset or confirmation mail, as a path with its query."""
    match = LINK.search(text_of(message))
    assert match, text_of(message)
    return "/" + match.group(0).split("/", 3)[3]
