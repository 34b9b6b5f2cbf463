"""Logging of the portal and the embedded provider: one JSON object per line in production,
readable lines in development, a request id on every line, and no secret in any of them.

The request id is created at the edge (the portal's HTTP middleware, or the provider client for
a call made from a websocket event), sent to the provider in ``X-Request-ID``, logged on both
sides and shown to the user with an unexpected error, so support can find the failure from what
the user reads. ``redact`` blanks passwords, tokens, tickets, cookies and authorisations in every
line, whichever logger wrote it (docs/decisions/operations-logs.md).
"""

import json
import logging
import re
import secrets
import sys
import traceback
from collections.abc import Mapping
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

REQUEST_ID_HEADER = "X-Request-ID"
request_id_var: ContextVar[str] = ContextVar("request_id", default="")

# An id another hop created (a proxy's $request_id, the portal for the provider) is kept when it
# looks like one; anything else, which could forge log lines, is replaced.
_ACCEPTABLE_ID = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
_HANDLER_NAME = "patchbay"

_SECRET_WORD = r"(?:password|passwd|secret|token|ticket|cookie|authorization|api[_-]?key)"  # noqa: S105
# name=value (a query, a form), "name": "value" (JSON), Name: value (a header) — for every name
# that holds a secret. A header's name is the word itself, so "Tickets: the list" stays.
_SECRET_FIELD = re.compile(
    rf"(?i)(\b[\w-]*(?:{_SECRET_WORD}|session)[\w-]*=|\"[\w-]*{_SECRET_WORD}[\w-]*\"\s*:\s*\"?"
    rf"|\b(?:set-)?{_SECRET_WORD}\b\s*:\s*)(?:Bearer\s+|Basic\s+)?[^\s\"'&,;}}]+"
)
# user:password@ in a URL (an SMTP_URL or a DATABASE_URL in an error).
_URL_CREDENTIALS = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@", re.IGNORECASE)
# A reset or confirmation link carries its token in the path or the query.
# So does the unsubscribe link of a notice or ticket e-mail (``/unsubscribe/user.….…``).
_TOKEN_LINK = re.compile(
    r"(/(?:reset|reset-password|confirm[\w-]*|unsubscribe)/)[A-Za-z0-9_.-]{16,}"
)
# A calendar feed's token (its URL is ``/calendar/pbc_….ics``) or an API token, wherever it is.
_PREFIXED_TOKEN = re.compile(r"\bpb[ct]_[A-Za-z0-9_-]{16,}")
REDACTED = "[redacted]"
# What every text the four patterns above match holds, lower-cased: a text with none of these
# is returned as it is, without running them (they took 100 µs on an access line, logged for
# every request). Compared with an ASCII text only, where lower-casing is what ``(?i)`` does.
_SECRET_MARKERS = ("password", "passwd", "secret", "token", "ticket", "cookie", "authorization",
                   "apikey", "api_key", "api-key", "session", "://", "pbc_", "pbt_", "/reset",
                   "/confirm", "/unsubscribe/")  # fmt: skip
# The servers' access loggers, which print with handlers of their own in text mode.
_SERVER_ACCESS_LOGGERS = ("uvicorn.access", "granian.access")


def new_request_id() -> str:
    return secrets.token_hex(8)


def accept_request_id(value: str | None) -> str:
    """``value`` when it is a plausible id, else a new one."""
    return value if value and _ACCEPTABLE_ID.match(value) else new_request_id()


def current_request_id() -> str:
    return request_id_var.get()


_default_record_factory = logging.getLogRecordFactory()


def _record_with_request_id(*args: Any, **kwargs: Any) -> logging.LogRecord:
    """Every record carries the request id of the task that wrote it, whatever formats it later
    (and wherever: a test's log capture, another thread's handler)."""
    record = _default_record_factory(*args, **kwargs)
    record.request_id = request_id_var.get()
    return record


logging.setLogRecordFactory(_record_with_request_id)


def may_hold_secret(text: str) -> bool:
    """False only for a text none of the patterns can match."""
    if not text.isascii():
        return True
    lowered = text.lower()
    return any(marker in lowered for marker in _SECRET_MARKERS)


def redact(text: str) -> str:
    """``text`` with every secret it may carry blanked."""
    if not may_hold_secret(text):
        return text
    text = _URL_CREDENTIALS.sub(rf"\1{REDACTED}@", text)
    text = _TOKEN_LINK.sub(rf"\1{REDACTED}", text)
    text = _PREFIXED_TOKEN.sub(REDACTED, text)
    return _SECRET_FIELD.sub(rf"\1{REDACTED}", text)


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class RedactingFilter(logging.Filter):
    """Blanks the secrets of a record's message and arguments before any handler sees it: for
    loggers whose lines some other handler than ours may print (Uvicorn's access lines, kept on
    Uvicorn's own handler in text mode, name the path a calendar feed's token is part of)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _redacted(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {name: _redacted(value) for name, value in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_redacted(value) for value in record.args)
        return True


# Attributes every LogRecord has; anything else was passed with ``extra=`` and is logged too.
_STANDARD_ATTRIBUTES = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


def _extras(record: logging.LogRecord) -> list[tuple[str, Any]]:
    """The fields passed with ``extra=``, but the request id, which has its own place."""
    return [
        (name, value)
        for name, value in record.__dict__.items()
        if name not in _STANDARD_ATTRIBUTES and name != "request_id" and not name.startswith("_")
    ]


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        request_id = getattr(record, "request_id", "") or request_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        for name, value in _extras(record):
            entry[name] = redact(value) if isinstance(value, str) else value
        if record.exc_info:
            entry["exception"] = redact("".join(traceback.format_exception(*record.exc_info)))
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """A readable line for development, with the request id and any extra fields."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extras = [f"{name}={value}" for name, value in _extras(record)]
        request_id = getattr(record, "request_id", "") or request_id_var.get()
        if request_id:
            extras.insert(0, f"request_id={request_id}")
        if extras:
            line += " [" + " ".join(extras) + "]"
        return redact(line)


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time (a test may have swapped it since)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def configure_logging(log_format: str, level: str = "INFO") -> None:
    """Send the root logger's records to stderr as ``json`` or ``text`` lines; the loggers of
    the servers (Granian, Uvicorn) and of Reflex go through the same handler. Idempotent."""
    formatter: logging.Formatter = JsonFormatter() if log_format == "json" else TextFormatter()
    root = logging.getLogger()
    handler = next((h for h in root.handlers if h.get_name() == _HANDLER_NAME), None)
    if handler is None:
        handler = _StderrHandler()
        handler.set_name(_HANDLER_NAME)
        root.addHandler(handler)
    handler.setFormatter(formatter)
    root.setLevel(level.upper())
    # httpx logs every call with its whole URL (a reset token is a path segment of the
    # provider's API); the provider client logs its own failures, with the request id.
    for chatty in ("httpx", "httpcore"):
        logging.getLogger(chatty).setLevel(max(logging.WARNING, root.level))
    for name in _SERVER_ACCESS_LOGGERS:
        access = logging.getLogger(name)
        if not any(isinstance(existing, RedactingFilter) for existing in access.filters):
            access.addFilter(RedactingFilter())
    if log_format == "json":
        # One line per event on one stream: the servers' own handlers would print a second,
        # plain copy of their records.
        for name in ("granian", "granian.access", "uvicorn", "uvicorn.error", "uvicorn.access"):
            server_logger = logging.getLogger(name)
            server_logger.handlers = []
            server_logger.propagate = True
