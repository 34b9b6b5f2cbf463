"""The mail outbox (issue 17): a mail requested while the SMTP server is down waits in the
database and leaves once the server is back — shown with a real aiosmtpd server stopped and
started again on the same port."""

import threading
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from portal.provider.platform.mail.outbox import deliver_due, wait_for_deliveries
from portal.provider.platform.models import OutboxMail, utcnow
from portal.settings import get_settings
from tests.ports import free_port
from tests.provider.conftest import World
from tests.provider.mailbox import link_token, smtp_server
from tests.provider.metric_values import sample


@pytest.fixture
def smtp_port(monkeypatch: pytest.MonkeyPatch, engine: sa.Engine) -> Iterator[int]:
    port = free_port()
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{port}")
    monkeypatch.setenv("MAIL_RETRY_SECONDS", "30")
    monkeypatch.setenv("MAIL_MAX_ATTEMPTS", "3")
    get_settings.cache_clear()
    yield port
    wait_for_deliveries()
    with engine.begin() as connection:
        connection.execute(sa.delete(OutboxMail))
    monkeypatch.undo()
    get_settings.cache_clear()


def _outbox(engine: sa.Engine) -> list[OutboxMail]:
    with Session(engine) as db:
        return list(db.exec(select(OutboxMail).order_by(OutboxMail.created_at)).all())


async def test_a_reset_requested_during_an_smtp_outage_is_delivered_after_it(
    client: httpx.AsyncClient, world: World, engine: sa.Engine, smtp_port: int
) -> None:
    failed, sent = (sample("patchbay_mails_total", outcome=o) for o in ("failed", "sent"))
    # The server is down: the user gets the usual answer, the mail waits.
    response = await client.post("/reset", json={"email": world.email("alice")})
    assert response.status_code == 204
    wait_for_deliveries()
    [waiting] = _outbox(engine)
    assert waiting.sent_at is None
    assert waiting.given_up_at is None
    assert waiting.attempts == 1
    assert "ConnectionRefusedError" in waiting.last_error
    assert waiting.next_attempt_at > utcnow() + timedelta(seconds=20)

    # Not due yet: nothing is tried before the wait is over.
    assert deliver_due(engine) == 0

    with smtp_server(port=smtp_port) as (sink, _):
        assert deliver_due(engine, now=utcnow() + timedelta(seconds=31)) == 1
    [(recipients, message)] = sink.messages
    assert recipients == [world.email("alice")]
    # Issue 17: the operators count both attempts.
    assert sample("patchbay_mails_total", outcome="failed") == failed + 1
    assert sample("patchbay_mails_total", outcome="sent") == sent + 1
    token = link_token(message, "http://localhost:3000/reset-password")
    # The link works: the token was stored in the same transaction as the mail.
    reset = await client.post(f"/reset/{token}", json={"password": "A-new-password-2027"})
    assert reset.status_code == 204, reset.text
    [sent] = _outbox(engine)
    assert sent.sent_at is not None
    assert sent.attempts == 2
    assert sent.body == ""  # the live link is no longer kept


def test_a_mail_is_given_up_after_the_last_attempt(
    world: World, engine: sa.Engine, smtp_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    from portal.provider.platform.mail import send_account_confirmation
    from portal.provider.platform.models import User

    with Session(engine) as db:
        send_account_confirmation(db, db.get_one(User, world.users["bram"]), "en")
        db.commit()
    wait_for_deliveries()
    later = utcnow()
    for _ in range(2):
        later += timedelta(hours=1)
        deliver_due(engine, now=later)
    [mail] = _outbox(engine)
    assert mail.attempts == 3
    assert mail.given_up_at is not None
    assert mail.sent_at is None
    assert "given up" in caplog.text
    assert deliver_due(engine, now=later + timedelta(days=1)) == 0


def test_two_workers_never_send_the_same_mail_twice(
    world: World, engine: sa.Engine, smtp_port: int, tmp_path: Path
) -> None:
    from portal.provider.platform.mail import send_account_confirmation
    from portal.provider.platform.models import User

    with Session(engine) as db:
        for key in ("bob", "claire", "helene", "support"):
            send_account_confirmation(db, db.get_one(User, world.users[key]), "en")
        db.commit()
    wait_for_deliveries()  # all four failed once: the server is down
    with smtp_server(port=smtp_port) as (sink, _):
        later = utcnow() + timedelta(minutes=5)
        workers = [threading.Thread(target=deliver_due, args=(engine, later)) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
    recipients = sorted(rcpt for rcpts, _message in sink.messages for rcpt in rcpts)
    assert recipients == sorted(world.email(k) for k in ("bob", "claire", "helene", "support"))
    assert all(mail.sent_at is not None for mail in _outbox(engine))


def test_a_mail_deleted_while_it_leaves_is_no_error(
    world: World,
    engine: sa.Engine,
    smtp_port: int,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    from portal.provider.platform.mail import outbox, send_account_confirmation
    from portal.provider.platform.models import User

    with Session(engine) as db:
        send_account_confirmation(db, db.get_one(User, world.users["bob"]), "en")
        db.commit()
    wait_for_deliveries()  # failed once: the server is down
    caplog.clear()
    real_deliver = outbox.deliver

    def purged_meanwhile(message: EmailMessage) -> None:
        with engine.begin() as connection:
            connection.execute(sa.delete(OutboxMail))
        real_deliver(message)

    monkeypatch.setattr(outbox, "deliver", purged_meanwhile)
    with smtp_server(port=smtp_port) as (sink, _):
        assert deliver_due(engine, now=utcnow() + timedelta(minutes=5)) == 1
    [(recipients, _message)] = sink.messages
    assert recipients == [world.email("bob")]
    assert _outbox(engine) == []
    assert "Traceback" not in caplog.text
    assert "StaleDataError" not in caplog.text
