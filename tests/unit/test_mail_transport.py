"""How the provider reads SMTP_URL and names the ``.eml`` files of its mail."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from portal.provider.platform.mail.transport import (
    SmtpServer,
    _tls_context,
    eml_filename,
    parse_smtp_url,
)


@pytest.mark.parametrize(
    ("url", "server"),
    [
        ("smtp://mail.example.test", SmtpServer("smtp", "mail.example.test", 25, None, None)),
        ("smtps://mail.example.test", SmtpServer("smtps", "mail.example.test", 465, None, None)),
        (
            "smtp+starttls://relay%40corp:p%40ss%3Aword@mail.example.test:2525",
            SmtpServer("smtp+starttls", "mail.example.test", 2525, "relay@corp", "p@ss:word"),
        ),
        ("smtp://user@127.0.0.1:1025", SmtpServer("smtp", "127.0.0.1", 1025, "user", None)),
    ],
)
def test_smtp_urls(url: str, server: SmtpServer) -> None:
    assert parse_smtp_url(url) == server


@pytest.mark.parametrize("url", ["http://mail.example.test", "mail.example.test", "smtp://"])
def test_other_urls_are_refused_with_a_clear_message(url: str) -> None:
    with pytest.raises(ValueError, match="SMTP_URL"):
        parse_smtp_url(url)


def test_eml_file_names_sort_by_time_and_name_the_recipient() -> None:
    at = datetime(2026, 11, 23, 9, 5, 7, 123456, tzinfo=UTC)
    assert eml_filename("Alice Martin <alice@acme.test>", at) == (
        "20261123T090507123456-alice@acme.test.eml"
    )


def test_a_recipient_cannot_name_another_directory() -> None:
    at = datetime(2026, 11, 23, tzinfo=UTC)
    name = eml_filename("../../etc/passwd@x.test", at)
    assert "/" not in name
    assert name.endswith("-.._.._etc_passwd@x.test.eml")


def test_the_tls_context_is_made_once_per_certificate_place(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Loading the certificates cost more than sending a mail (issue 50: thousands of notices).
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    first = _tls_context()
    assert _tls_context() is first
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "relay.pem"))
    other = _tls_context()
    assert other is not first
    assert _tls_context() is other
