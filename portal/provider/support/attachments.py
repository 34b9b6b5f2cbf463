"""The files customers attach to tickets: the type decided by the bytes, never by the name or
the type the browser sent, against an allow-list (PDF, PNG, JPEG, GIF, WebP, plain text, CSV,
logs, pcap and pcapng captures, zip); the name cleaned; stored under the data directory as
``documents/tickets/<attachment id>/<ASCII name>``. They are only ever served as downloads
(``Content-Disposition: attachment``, ``nosniff``): an image is not shown inline from the API.
"""

import uuid
from pathlib import PurePosixPath

from sqlmodel import Session, col, func, select

from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.file_store import display_name, write_file
from portal.provider.platform.models import TicketAttachment

STORE_DIR = PurePosixPath("documents") / "tickets"
# Files on one message, or on the ticket itself.
MAX_FILES = 10
NOT_ALLOWED = N_(
    "This type of file cannot be attached: PDF, images (PNG, JPEG, GIF, WebP), text, CSV, logs, "
    "network captures (pcap) and zip archives can."
)
TOO_MANY_FILES = N_("At most {max} files can be attached here.")
EMPTY_FILE = N_("The file is empty.")

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"PK\x03\x04", "application/zip"),
    (b"PK\x05\x06", "application/zip"),  # an empty archive
    (b"\xd4\xc3\xb2\xa1", "application/vnd.tcpdump.pcap"),
    (b"\xa1\xb2\xc3\xd4", "application/vnd.tcpdump.pcap"),
    (b"\x4d\x3c\xb2\xa1", "application/vnd.tcpdump.pcap"),  # nanosecond captures
    (b"\xa1\xb2\x3c\x4d", "application/vnd.tcpdump.pcap"),
    (b"\x0a\x0d\x0d\x0a", "application/x-pcapng"),
)
# Text: UTF-8 with no control character but tabs, line and page breaks.
_TEXT_CONTROLS = frozenset(range(32)) - {9, 10, 12, 13}


def _is_text(content: bytes) -> bool:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(char) in _TEXT_CONTROLS or char == "\x7f" for char in text)


def sniff(name: str, content: bytes) -> str | None:
    """The media type the content is of, when it is on the allow-list; None otherwise."""
    for signature, media_type in _SIGNATURES:
        if content.startswith(signature):
            return media_type
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "image/webp"
    if _is_text(content):
        return "text/csv" if name.lower().endswith(".csv") else "text/plain"
    return None


def check_file(name: str, content: bytes) -> str:
    """The media type of an attachment; 422 on ``file`` when it is empty or not allowed."""
    if not content:
        raise ApiError(422, EMPTY_FILE, violations=[Violation("file", EMPTY_FILE)])
    media_type = sniff(name, content)
    if media_type is None:
        raise ApiError(422, NOT_ALLOWED, violations=[Violation("file", NOT_ALLOWED)])
    return media_type


def check_room(db: Session, ticket_id: uuid.UUID, message_id: uuid.UUID | None) -> None:
    """422 on ``file`` when the message (or the ticket itself) already has ``MAX_FILES``."""
    owner = (
        col(TicketAttachment.message_id) == message_id
        if message_id is not None
        else col(TicketAttachment.message_id).is_(None)
    )
    statement = select(func.count()).where(col(TicketAttachment.ticket_id) == ticket_id, owner)
    if db.exec(statement).one() >= MAX_FILES:
        violation = Violation("file", TOO_MANY_FILES, {"max": MAX_FILES})
        raise ApiError(422, TOO_MANY_FILES, violations=[violation], max=MAX_FILES)


def store_attachment(
    db: Session,
    ticket_id: uuid.UUID,
    message_id: uuid.UUID | None,
    filename: str,
    content: bytes,
    media_type: str,
) -> TicketAttachment:
    """The attachment written to disk and added to ``db`` (the caller commits)."""
    name = display_name(filename, fallback="attachment")
    attachment = TicketAttachment(
        ticket_id=ticket_id,
        message_id=message_id,
        filename=name,
        size=len(content),
        content_type=media_type,
        file_path="",
    )
    attachment.file_path = write_file(STORE_DIR, str(attachment.id), name, content, None)
    db.add(attachment)
    return attachment
