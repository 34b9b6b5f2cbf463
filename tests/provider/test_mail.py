"""E-mail (issue 4): by a real SMTP server, or as ``.eml`` files; in the recipient's language,
plain text and HTML, with links to the portal's public URL; only once the token is committed."""

import logging
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from portal.provider.platform.mail import send_account_confirmation, send_password_reset
from portal.provider.platform.mail.outbox import wait_for_deliveries
from portal.provider.platform.models import OneTimeToken, TokenPurpose, User, utcnow
from portal.provider.platform.sessions import token_hash
from portal.settings import get_settings
from tests.provider.conftest import World
from tests.provider.mailbox import (
    body,
    eml_messages,
    empty,
    free_port,
    link_token,
    self_signed_certificate,
    smtp_server,
)


@pytest.fixture(autouse=True)
def no_earlier_mail(mail_dir: Path) -> None:
    empty(mail_dir)


@pytest.fixture
def public_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("PORTAL_PUBLIC_URL", "https://portal.example.test/")
    get_settings.cache_clear()
    yield "https://portal.example.test"
    monkeypatch.undo()
    get_settings.cache_clear()


def _use_smtp(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("SMTP_URL", url)
    get_settings.cache_clear()


@pytest.fixture(autouse=True)
def _settings_restored() -> Iterator[None]:
    yield
    get_settings.cache_clear()


def _confirm(world: World, key: str, language: str) -> None:
    with Session(world.engine) as session:
        send_account_confirmation(session, session.get_one(User, world.users[key]), language)
        session.commit()
    wait_for_deliveries()


def test_the_confirmation_mail_goes_through_smtp_in_the_recipients_language(
    world: World, monkeypatch: pytest.MonkeyPatch, public_url: str
) -> None:
    with smtp_server() as (sink, port):
        _use_smtp(monkeypatch, f"smtp://127.0.0.1:{port}")
        _confirm(world, "alice", "fr-FR")

    [(recipients, message)] = sink.messages
    assert recipients == ["alice@acme-networks.test"]
    assert message["To"] == "Alice Martin <alice@acme-networks.test>"
    assert message["From"] == "Patchbay <no-reply@patchbay.test>"
    assert message["Subject"] == "Votre compte sur le portail client Patchbay"
    assert message["Content-Language"] == "fr"
    assert message.get_content_type() == "multipart/alternative"
    text, html = body(message, "plain"), body(message, "html")
    assert "Bonjour Alice Martin," in text
    assert "dans les 7 jours" in text
    token = link_token(message, f"{public_url}/confirm-account")
    assert f'href="{public_url}/confirm-account?token={token}"' in html
    assert "Confirmer mon compte" in html


def test_the_stored_token_is_only_a_hash_and_lasts_seven_days(
    world: World, monkeypatch: pytest.MonkeyPatch, mail_dir: Path
) -> None:
    _confirm(world, "bob", "en")
    [message] = eml_messages(mail_dir, "bob@example.test")
    token = link_token(message, "/confirm-account")
    assert len(token) >= 43  # 32 random bytes, base64url
    with Session(world.engine) as session:
        stored = session.exec(
            select(OneTimeToken).where(OneTimeToken.user_id == world.users["bob"])
        ).one()
    assert stored.token_hash == token_hash(token) != token
    assert stored.purpose == TokenPurpose.CONFIRM
    assert stored.used_at is None
    assert abs(stored.expires_at - (utcnow() + timedelta(days=7))) < timedelta(minutes=1)


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_smtp_credentials_of_the_url_are_used(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    with smtp_server(login=("relay user", "s3cret:pass")) as (sink, port):
        _use_smtp(monkeypatch, f"smtp://relay%20user:s3cret%3Apass@127.0.0.1:{port}")
        _confirm(world, "helene", "en")
    [(recipients, message)] = sink.messages
    assert recipients == ["helene@example.test"]
    assert message["Subject"] == "Your account on the Patchbay customer portal"


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
@pytest.mark.parametrize(("tls", "scheme"), [("smtps", "smtps"), ("starttls", "smtp+starttls")])
def test_tls_relays_are_used_with_their_certificate_checked(
    world: World, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, tls: str, scheme: str
) -> None:
    certificate = self_signed_certificate(tmp_path)
    # The relay's certificate is trusted the way a system's CA bundle is.
    monkeypatch.setenv("SSL_CERT_FILE", str(certificate[0]))
    login = ("relay", "s3cret")
    with smtp_server(login=login, tls=tls, certificate=certificate) as (sink, port):
        _use_smtp(monkeypatch, f"{scheme}://relay:s3cret@127.0.0.1:{port}")
        _confirm(world, "helene", "en")
    [(recipients, message)] = sink.messages
    assert recipients == ["helene@example.test"]
    assert message["Subject"] == "Your account on the Patchbay customer portal"


@pytest.mark.parametrize(("tls", "scheme"), [("smtps", "smtps"), ("starttls", "smtp+starttls")])
def test_an_untrusted_relay_certificate_is_refused(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    tls: str,
    scheme: str,
) -> None:
    certificate = self_signed_certificate(tmp_path)
    with smtp_server(tls=tls, certificate=certificate) as (sink, port):
        _use_smtp(monkeypatch, f"{scheme}://127.0.0.1:{port}")
        with caplog.at_level(logging.ERROR):
            _confirm(world, "helene", "en")
    assert sink.messages == []
    assert "CERTIFICATE_VERIFY_FAILED" in caplog.text


def test_a_failed_delivery_is_logged_not_raised(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _use_smtp(monkeypatch, f"smtp://127.0.0.1:{free_port()}")  # nobody listens there
    with caplog.at_level(logging.ERROR):
        _confirm(world, "helene", "en")
    assert "Could not send the mail 'Your account on the Patchbay customer portal'" in caplog.text


def test_without_smtp_url_the_mail_is_an_eml_file_whose_path_is_logged(
    world: World, mail_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="portal.provider.platform.mail.transport"):
        with Session(world.engine) as session:
            user = session.get_one(User, world.users["bram"])
            user.language = "fr"
            send_password_reset(session, user)
            session.commit()
        [message] = eml_messages(mail_dir, "bram@example.test")
    [path] = mail_dir.glob("*-bram@example.test.eml")
    # Written aside and renamed whole: nothing else is left in the folder.
    assert [entry.name for entry in mail_dir.iterdir()] == [path.name]
    assert str(path) in caplog.text
    assert re.fullmatch(r"\d{8}T\d{12}-bram@example.test.eml", path.name)
    assert message["Subject"] == "Réinitialisez votre mot de passe"
    assert "dans l'heure" in body(message, "plain")
    token = link_token(message, "http://localhost:3000/reset-password")
    with Session(world.engine) as session:
        stored = session.exec(
            select(OneTimeToken).where(OneTimeToken.token_hash == token_hash(token))
        ).one()
    assert stored.purpose == TokenPurpose.RESET
    assert abs(stored.expires_at - (utcnow() + timedelta(hours=1))) < timedelta(minutes=1)


def test_nothing_is_sent_when_the_transaction_is_rolled_back(world: World, mail_dir: Path) -> None:
    with Session(world.engine) as session:
        send_account_confirmation(session, session.get_one(User, world.users["claire"]), "en")
        session.rollback()
    with Session(world.engine) as session:
        session.commit()  # a later commit of another session sends nothing either
    assert eml_messages(mail_dir, "claire@example.test") == []
