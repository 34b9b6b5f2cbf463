"""Logs (issue 17): JSON lines in production, readable ones in development, never a secret."""

import json
import logging
import logging.config
import time
from collections.abc import Iterator

import granian.log
import pytest
import uvicorn.config

from portal.logs import (
    JsonFormatter,
    TextFormatter,
    configure_logging,
    may_hold_secret,
    redact,
    request_id_var,
)
from portal.settings import Settings


def _record(message: str, *args: object, **extra: object) -> logging.LogRecord:
    token = request_id_var.set("req-0123456789")
    try:
        logger = logging.getLogger("portal.test")
        return logger.makeRecord(
            "portal.test", logging.INFO, __file__, 1, message, args, None, extra=extra
        )
    finally:
        request_id_var.reset(token)


def test_production_logs_json_and_development_text() -> None:
    assert Settings(environment="production").effective_log_format == "json"
    assert Settings(environment="development").effective_log_format == "text"
    assert Settings(environment="development", log_format="json").effective_log_format == "json"


def test_a_json_line_holds_the_request_id_and_the_extra_fields() -> None:
    line = JsonFormatter().format(_record("GET %s %d", "/services", 200, status=200))
    entry = json.loads(line)
    assert entry["message"] == "GET /services 200"
    assert entry["request_id"] == "req-0123456789"
    assert entry["status"] == 200
    assert entry["level"] == "info"
    assert "\n" not in line


def test_a_text_line_names_the_request_id() -> None:
    line = TextFormatter().format(_record("Seeded"))
    assert line.endswith("Seeded [request_id=req-0123456789]")


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('{"username": "a@b.test", "password": "Patchbay-demo-2026"}', "Patchbay-demo-2026"),
        ("password=Patchbay-demo-2026&next=/", "Patchbay-demo-2026"),
        ("Cookie: patchbay_session=Zm9vYmFyYmF6cXV4", "Zm9vYmFyYmF6cXV4"),
        ("Cookie: theme=dark; patchbay_session=Zm9vYmFyYmF6cXV4", "Zm9vYmFyYmF6cXV4"),
        ("Running upgrade: Tickets: the folded subject", ""),
        ("Authorization: Bearer pbt_abcdef0123456789", "pbt_abcdef0123456789"),
        ("https://portal.test/reset-password?token=AbC123xyz_-456", "AbC123xyz_-456"),
        ("GET /_portal/session?ticket=tk_998877665544", "tk_998877665544"),
        ("POST http://127.0.0.1:3000/provider/reset/Qw3rty_uiop-Asdfgh12", "Qw3rty_uiop-Asdfgh12"),
        ("SMTP_URL smtp://mailer:hunter2@mail.internal:25", "hunter2"),
    ],
)
def test_secrets_are_blanked_in_every_line(text: str, secret: str) -> None:
    if not secret:  # a plain sentence that only looks like "name: value" stays whole
        assert redact(text) == text
        return
    assert secret not in redact(text)
    assert secret not in JsonFormatter().format(_record("%s", text))
    assert secret not in TextFormatter().format(_record("%s", text))


def test_an_exception_text_is_redacted_too() -> None:
    try:
        raise ValueError("login failed with password=Patchbay-demo-2026")
    except ValueError:
        record = logging.getLogger("t").makeRecord(
            "t", logging.ERROR, __file__, 1, "failed", (), exc_info=__import__("sys").exc_info()
        )
    assert "Patchbay-demo-2026" not in JsonFormatter().format(record)


FEED_TOKEN = "pbc_" + "Zq9-x_Lm3P" * 4 + "a1B"


def test_a_calendar_feed_link_is_logged_redacted() -> None:
    # Issue 47, item 15: the feed's URL is its credential.
    line = f"GET /calendar/{FEED_TOKEN}.ics 200 3.1 ms"
    assert redact(line) == "GET /calendar/[redacted].ics 200 3.1 ms"
    provider = f"GET http://127.0.0.1:3000/provider/feeds/maintenances/{FEED_TOKEN}.ics"
    assert redact(provider).endswith("/feeds/maintenances/[redacted].ics")


@pytest.fixture
def server_loggers() -> Iterator[None]:
    """The logging set-up a test changes, put back afterwards."""
    names = [
        "",
        *(
            f"{server}{part}"
            for server in ("uvicorn", "granian")
            for part in ("", ".access", ".error")
        ),
    ]
    saved = [
        (logger, list(logger.handlers), list(logger.filters), logger.propagate, logger.level)
        for logger in map(logging.getLogger, names)
    ]
    yield
    for logger, handlers, filters, propagate, level in saved:
        logger.handlers, logger.filters = handlers, filters
        logger.propagate, logger.level = propagate, level


def test_the_servers_access_lines_are_redacted_on_their_own_handlers(
    server_loggers: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # What Uvicorn (REFLEX_USE_GRANIAN=false) and Granian (with its access log on) set up,
    # then the portal's own configuration in development's text format.
    logging.config.dictConfig(uvicorn.config.LOGGING_CONFIG)
    logging.config.dictConfig(granian.log.LOGGING_CONFIG)
    configure_logging("text")
    path = f"/calendar/{FEED_TOKEN}.ics"
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:50000", "GET", path, "1.1", 200
    )
    granian.log.log_request_builder('"%(method)s %(path)s" %(status)d')(
        time.time(),
        time.perf_counter(),
        {
            "addr_remote": "127.0.0.1",
            "path": path,
            "qs": "",
            "method": "GET",
            "scheme": "http",
            "protocol": "HTTP/1.1",
        },
        200,
    )
    printed = capsys.readouterr()
    assert FEED_TOKEN not in printed.out + printed.err
    assert printed.out.count("/calendar/[redacted].ics") == 2


@pytest.mark.parametrize(
    "text",
    [
        "password=hunter2hunter2",
        '"apiKey": "k-123456"',
        "Set-Cookie: patchbay_session=Zm9vYmFy",
        "smtp://mailer:hunter2@mail.internal:25",
        "/confirm-email/AbCdEfGhIjKlMnOpQr",
        "/unsubscribe/user.AbCdEfGhIjKlMnOp.q",
        f"/calendar/{FEED_TOKEN}.ics",
        # Not ASCII: the patterns' case-insensitive match finds "ſ" (long s) as an "s" and the
        # Kelvin sign as a "k", which lower-casing would not.
        "paſſword=hunter2hunter2",
        "toKen=hunter2hunter2",
    ],
)
def test_the_quick_check_lets_every_secret_through_to_the_patterns(text: str) -> None:
    assert may_hold_secret(text)
    assert redact(text) != text


def test_an_access_line_without_a_secret_skips_the_patterns() -> None:
    line = "GET /api/services/{service_id} 200 1.3 ms"
    assert not may_hold_secret(line)
    assert redact(line) == line
