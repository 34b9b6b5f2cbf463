"""Housekeeping (issue 17): the purge removes what is past its retention and nothing else, from
the command line as from the provider's periodic task."""

import asyncio
from collections.abc import Iterator
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from portal.provider.cli import main as cli
from portal.provider.housekeeping import purge, run_periodically
from portal.provider.platform.models import (
    AuditLog,
    OneTimeToken,
    OutboxMail,
    ProviderSession,
    RateLimitCounter,
    Ticket,
    TicketEvent,
    TicketEventType,
    TicketFeedHorizon,
    TicketPriority,
    TicketStatus,
    TokenPurpose,
    WebhookDelivery,
    WebhookDeliveryState,
    WebhookEndpoint,
    utcnow,
)
from portal.settings import get_settings
from tests.provider.conftest import World
from tests.provider.settings_override import overridden

# The tables the purge keeps bounded.
_PURGED = (
    ProviderSession,
    OneTimeToken,
    RateLimitCounter,
    AuditLog,
    OutboxMail,
    TicketEvent,
    WebhookDelivery,
)


@pytest.fixture
def rows(world: World, engine: sa.Engine) -> Iterator[None]:
    """One row to keep and one to purge of each kind."""
    now = utcnow()
    alice = world.users["alice"]
    with Session(engine) as db:
        db.add(ProviderSession(id="a" * 64, user_id=alice, created_at=now, last_seen_at=now))
        db.add(
            ProviderSession(
                id="b" * 64,
                user_id=alice,
                created_at=now - timedelta(hours=2),
                last_seen_at=now - timedelta(hours=1),
            )
        )
        for name, expires, used in (
            ("keep", now + timedelta(hours=1), None),
            ("used-lately", now - timedelta(days=1), now - timedelta(days=1)),
            ("old", now - timedelta(days=8), None),
        ):
            db.add(
                OneTimeToken(
                    token_hash=name.ljust(64, "0"),
                    user_id=alice,
                    purpose=TokenPurpose.RESET,
                    expires_at=expires,
                    used_at=used,
                )
            )
        db.add(RateLimitCounter(id="c" * 64, window_start=now, count=1))
        db.add(RateLimitCounter(id="d" * 64, window_start=now - timedelta(hours=2), count=3))
        db.add(AuditLog(action="login", at=now - timedelta(days=10)))
        db.add(AuditLog(action="login", at=now - timedelta(days=401)))
        db.add(OutboxMail(recipient="a@b.test", subject="s", sent_at=now - timedelta(days=31)))
        db.add(OutboxMail(recipient="a@b.test", subject="s", body="waiting"))
        ticket = Ticket(number=1, company_id=world.companies["acme"], name="1", subject="s",
                        status=TicketStatus.OPEN, priority=TicketPriority.LOW)  # fmt: skip
        db.add(ticket)
        db.flush()
        for created in (now - timedelta(days=31), now - timedelta(days=29)):
            db.add(
                TicketEvent(
                    type=TicketEventType.TICKET_OPENED, ticket_id=ticket.id, created=created
                )
            )
            db.flush()  # in this order: the older first, as the feed writes them
        endpoint = WebhookEndpoint(company_id=world.companies["acme"], url="https://x.test/",
                                   secret="sealed")  # fmt: skip
        db.add(endpoint)
        db.flush()
        for number, (state, age) in enumerate(
            (
                (WebhookDeliveryState.DELIVERED, 31),  # purged
                (WebhookDeliveryState.FAILED, 31),  # purged
                (WebhookDeliveryState.DELIVERED, 29),
                (WebhookDeliveryState.PENDING, 31),  # still the outbox
            )
        ):
            db.add(
                WebhookDelivery(
                    message_id=f"msg_{number}", endpoint_id=endpoint.id, event_type="ping",
                    payload="{}", state=state, created_at=now - timedelta(days=age),
                )
            )  # fmt: skip
        db.commit()
    yield
    with engine.begin() as connection:
        for model in (*_PURGED, WebhookEndpoint, TicketFeedHorizon, Ticket):
            connection.execute(sa.delete(model))


def _left(engine: sa.Engine) -> dict[str, int]:
    with Session(engine) as db:
        return {model.__tablename__: len(db.exec(select(model)).all()) for model in _PURGED}


def test_the_purge_keeps_what_is_within_its_retention(rows: None, engine: sa.Engine) -> None:
    deleted = purge(engine)
    assert deleted == {
        "sessions": 1,
        "one_time_links": 1,
        "rate_limit_counters": 1,
        "sent_mails": 1,
        "audit_entries": 1,
        "webhook_deliveries": 2,
        "ticket_events": 1,
    }
    assert _left(engine) == {
        "provider_sessions": 1,
        "one_time_tokens": 2,
        "rate_limit_counters": 1,
        "audit_log": 1,
        "mail_outbox": 1,
        "ticket_events": 1,
        "webhook_deliveries": 2,
    }
    with Session(engine) as db:
        assert db.exec(select(OutboxMail.body)).one() == "waiting"  # not sent yet: kept
    assert purge(engine) == dict.fromkeys(deleted, 0)


def test_retention_periods_are_settings(
    rows: None, engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUDIT_RETENTION_DAYS", "7")
    get_settings.cache_clear()
    try:
        assert purge(engine)["audit_entries"] == 2
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()


def test_the_ticket_events_retention_is_a_setting(rows: None, engine: sa.Engine) -> None:
    with overridden(ticket_event_retention_days=32):
        assert purge(engine)["ticket_events"] == 0
    with overridden(ticket_event_retention_days=28):
        assert purge(engine)["ticket_events"] == 2


def test_the_command_line_purges_for_cron(
    rows: None, engine: sa.Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setenv("DATABASE_URL", engine.url.render_as_string(hide_password=False))
    get_settings.cache_clear()
    try:
        assert cli(["purge"]) == 0
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
    assert "1 audit entries" in capsys.readouterr().out
    with Session(engine) as db:
        oldest = db.exec(select(AuditLog.at).order_by(col(AuditLog.at))).first()
    assert oldest is not None
    assert oldest > utcnow() - timedelta(days=400)


async def test_the_periodic_task_purges_on_its_interval(
    rows: None, engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOUSEKEEPING_INTERVAL_MINUTES", "0.001")
    get_settings.cache_clear()
    task = asyncio.create_task(run_periodically(engine))
    try:
        for _ in range(100):
            await asyncio.sleep(0.05)
            if _left(engine)["audit_log"] == 1:
                break
    finally:
        task.cancel()
        monkeypatch.undo()
        get_settings.cache_clear()
    assert _left(engine)["audit_log"] == 1
