"""The purge of rows that have served their time: expired sessions, used or expired one-time
tokens, closed rate-limit windows, sent mails, old audit entries, the helpdesk's old events and
the webhook deliveries that are done with.

``purge(engine)`` runs from cron (``python -m portal.provider purge``) or from the provider's
own periodic task (every ``HOUSEKEEPING_INTERVAL_MINUTES`` in each worker: the deletes are
idempotent, so several runs at once only find less to do). Retention periods are settings.
"""

import asyncio
import logging
from datetime import datetime, timedelta

from sqlalchemy import Engine, delete, or_
from sqlmodel import Session, col

from portal.provider.platform.models import (
    AuditLog,
    OneTimeToken,
    OutboxMail,
    ProviderSession,
    RateLimitCounter,
    WebhookDelivery,
    WebhookDeliveryState,
    utcnow,
)
from portal.provider.platform.ticket_events import purge_events
from portal.settings import get_settings

logger = logging.getLogger(__name__)


def purge(engine: Engine, now: datetime | None = None) -> dict[str, int]:
    """Delete what is past its retention; returns the rows deleted per kind."""
    settings = get_settings()
    now = now or utcnow()
    token_cutoff = now - timedelta(days=settings.expired_token_retention_days)
    longest_window = max(settings.login_limit_window_minutes, settings.reset_limit_window_minutes)
    mail_cutoff = now - timedelta(days=settings.sent_mail_retention_days)
    statements = {
        "sessions": delete(ProviderSession).where(
            or_(
                col(ProviderSession.last_seen_at)
                < now - timedelta(minutes=settings.session_idle_minutes),
                col(ProviderSession.created_at)
                < now - timedelta(hours=settings.session_absolute_hours),
            )
        ),
        "one_time_links": delete(OneTimeToken).where(
            or_(
                col(OneTimeToken.expires_at) < token_cutoff,
                col(OneTimeToken.used_at) < token_cutoff,
            )
        ),
        "rate_limit_counters": delete(RateLimitCounter).where(
            col(RateLimitCounter.window_start) < now - timedelta(minutes=longest_window)
        ),
        "sent_mails": delete(OutboxMail).where(
            or_(col(OutboxMail.sent_at) < mail_cutoff, col(OutboxMail.given_up_at) < mail_cutoff)
        ),
        "audit_entries": delete(AuditLog).where(
            col(AuditLog.at) < now - timedelta(days=settings.audit_retention_days)
        ),
        # A delivery log entry, once delivered or failed (a pending one is still the outbox).
        "webhook_deliveries": delete(WebhookDelivery).where(
            col(WebhookDelivery.state) != WebhookDeliveryState.PENDING,
            col(WebhookDelivery.created_at)
            < now - timedelta(days=settings.webhook_delivery_retention_days),
        ),
    }
    deleted: dict[str, int] = {}
    with Session(engine) as db:
        for kind, statement in statements.items():
            deleted[kind] = db.exec(statement).rowcount
        event_cutoff = now - timedelta(days=settings.ticket_event_retention_days)
        deleted["ticket_events"] = purge_events(db, event_cutoff)
        db.commit()
    logger.info(
        "Housekeeping purged %s",
        ", ".join(f"{count} {kind}" for kind, count in deleted.items()),
        extra={"purged": deleted},
    )
    return deleted


async def run_periodically(engine: Engine) -> None:
    """Purge every ``HOUSEKEEPING_INTERVAL_MINUTES`` (never when 0) until cancelled."""
    interval = get_settings().housekeeping_interval_minutes
    if interval <= 0:
        return
    while True:
        await asyncio.sleep(interval * 60)
        try:
            await asyncio.to_thread(purge, engine)
        except Exception as error:
            logger.warning("Housekeeping failed, tried again later: %s", type(error).__name__)
