"""Webhooks (issue 51, items 4 and 5; docs/decisions/webhooks.md): what a company's endpoints
are sent, signed per the Standard Webhooks specification, from an outbox.

- ``announce`` is called by the domain that changed an object, in the transaction of the change,
  with the companies concerned and how to show the object to each (a shared maintenance lists
  only the receiving company's services): one ``webhook_deliveries`` row per subscribed, enabled
  endpoint, its body ``{type, timestamp, data}`` written once. Rows are added under a lock held to
  the commit (PostgreSQL's advisory lock), so their integer ids commit in their order.
- ``announce_change`` does the same for an object a domain shows through the renderer it
  registered for its kind (``register``, by the app: ``portal.provider.webhook_events``), read
  by a reader of each company alone (``company_reader``), so a shared object carries only
  what that company may see.
- ``deliver_due`` sends them: after each commit that added some (a small thread pool), and every
  few seconds from ``run_delivery_loop`` for the retries. A worker first claims the endpoint (one
  atomic UPDATE, so several workers or instances never deliver one endpoint at once), then sends
  its deliveries in id order, stopping at the first failure: a later event never overtakes an
  earlier one. Each attempt is signed anew (``webhook-timestamp`` is the attempt's time) under
  the delivery's own ``webhook-id``.
- A failure waits ``WEBHOOK_RETRY_SECONDS`` doubled at each attempt (at most an hour); a
  delivery still failing ``WEBHOOK_RETRY_WINDOW_HOURS`` after it was written disables its
  endpoint, marks what it held as failed, and tells the company's user managers by e-mail.
"""

import asyncio
import base64
import json
import logging
import secrets
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, cast

import httpx
import sqlalchemy as sa
from sqlalchemy import CursorResult, Engine
from sqlalchemy.orm import Session
from sqlmodel import Session as ModelSession
from sqlmodel import col, select
from standardwebhooks import Webhook

from portal.i18n import gettext
from portal.logs import redact
from portal.permissions import CLIENT_ROLES, rules_for
from portal.provider.platform import outbound, sealed
from portal.provider.platform.after_commit import AfterCommit
from portal.provider.platform.mail.webhooks import send_endpoint_disabled
from portal.provider.platform.models import (
    WebhookDelivery,
    WebhookDeliveryState,
    WebhookEndpoint,
    utcnow,
)
from portal.provider.platform.people import Person
from portal.provider.platform.security import Principal
from portal.settings import get_settings

logger = logging.getLogger(__name__)

EVENT_TYPES = (
    "maintenance.scheduled",
    "maintenance.updated",
    "maintenance.cancelled",
    "ticket.created",
    "ticket.updated",
    "sensor.status_changed",
)
# "Send a test event": sent to one endpoint whatever it subscribed to.
PING = "ping"
WHSEC_PREFIX = "whsec_"
SECRET_BYTES = 32
# How long a rotated secret still signs beside the new one.
ROTATION_OVERLAP = timedelta(hours=24)
CLAIM_SECONDS = 120
LOOP_SECONDS = 5
MAX_WAIT_SECONDS = 3600
_BATCH = 50
USER_AGENT = "Patchbay-Webhooks/1"
DISABLED_FAILING = "failing"
DISABLED_MANUALLY = "manual"

# Any number of this application's own: the key of the lock of the deliveries' writers.
_LOCK_KEY = 5_104_051


def new_secret() -> str:
    return WHSEC_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _context(endpoint_id: uuid.UUID) -> bytes:
    return b"patchbay webhook " + endpoint_id.bytes


def seal_secret(secret: str, endpoint_id: uuid.UUID) -> str:
    return sealed.seal(secret, _context(endpoint_id))


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> list[str]:
    """The endpoint's secret, then the previous one while its overlap lasts."""
    values = [endpoint.secret]
    expires = endpoint.previous_secret_expires_at
    if endpoint.previous_secret and expires is not None and _aware(expires) > now:
        values.append(endpoint.previous_secret)
    opened = [sealed.unseal(value, _context(endpoint.id)) for value in values]
    return [secret for secret, _current in filter(None, opened)]


def sign(secrets_: Iterable[str], message_id: str, at: datetime, body: str) -> str:
    """The ``webhook-signature`` header: one ``v1,…`` signature per secret, space separated."""
    return " ".join(Webhook(secret).sign(message_id, at, body) for secret in secrets_)


def body(event_type: str, at: datetime, data: dict[str, Any]) -> str:
    return json.dumps(
        {"type": event_type, "timestamp": at.isoformat().replace("+00:00", "Z"), "data": data},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def _lock(db: Session) -> None:
    if db.get_bind().dialect.name == "postgresql":
        db.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})


def enqueue(
    db: ModelSession, endpoint: WebhookEndpoint, event_type: str, data: dict[str, Any]
) -> WebhookDelivery:
    """Add one event for ``endpoint`` to ``db``'s transaction; it leaves after the commit."""
    _lock(db)
    delivery = WebhookDelivery(
        message_id=f"msg_{uuid.uuid4().hex}",
        endpoint_id=endpoint.id,
        event_type=event_type,
        payload=body(event_type, utcnow(), data),
    )
    db.add(delivery)
    _after_commit.request(db)
    return delivery


def announce(
    db: ModelSession,
    event_type: str,
    company_ids: Iterable[uuid.UUID],
    render: Callable[[uuid.UUID], dict[str, Any]],
) -> int:
    """Queue ``event_type`` for every enabled endpoint of ``company_ids`` subscribed to it, the
    object as ``render(company_id)`` shows it to that company (called only for companies with
    such an endpoint); the caller commits. Returns how many deliveries were queued."""
    wanted = set(company_ids)
    if not wanted:
        return 0
    endpoints = db.scalars(
        select(WebhookEndpoint)
        .where(col(WebhookEndpoint.company_id).in_(wanted), col(WebhookEndpoint.enabled))
        .order_by(col(WebhookEndpoint.company_id), col(WebhookEndpoint.created_at))
    ).all()
    rendered: dict[uuid.UUID, dict[str, Any]] = {}
    queued = 0
    for endpoint in endpoints:
        if event_type not in endpoint.event_types:
            continue
        if endpoint.company_id not in rendered:
            rendered[endpoint.company_id] = render(endpoint.company_id)
        enqueue(db, endpoint, event_type, rendered[endpoint.company_id])
        queued += 1
    return queued


# How a domain shows one of its objects to a company: (database, the object's id, a reader
# of that company alone) → the JSON of its item route.
Render = Callable[[ModelSession, uuid.UUID, Principal], dict[str, Any]]
_RENDERERS: dict[str, Render] = {}


def register(kind: str, render: Render) -> None:
    """``render`` shows the objects of the events ``{kind}.…``."""
    _RENDERERS[kind] = render


def company_reader(company_id: uuid.UUID) -> Principal:
    """Who reads an event's object for one company: no user, that company alone, the rules any
    customer role may hold (each endpoint chose its events; its managers chose it)."""
    nobody = Person(uuid.UUID(int=0), "", (), True)
    return Principal(nobody, None, None, frozenset({company_id}), rules_for(CLIENT_ROLES))


def announce_change(
    db: ModelSession, event_type: str, object_id: uuid.UUID, company_ids: Iterable[uuid.UUID]
) -> int:
    """``announce`` the change of the object ``object_id``, shown by its kind's renderer to
    each company (in English: the payload is for machines, its labels are a courtesy)."""
    kind = event_type.split(".", 1)[0]

    def render(company: uuid.UUID) -> dict[str, Any]:
        return _RENDERERS[kind](db, object_id, company_reader(company))

    return announce(db, event_type, company_ids, render)


def wait_for_deliveries(timeout: float = 60) -> None:
    """Block until the deliveries started by the commits so far have ended (tests)."""
    _after_commit.wait(timeout)


def _aware(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes; every stored time is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=utcnow().tzinfo)


def deliver_due(engine: Engine, now: datetime | None = None) -> int:
    """Deliver, endpoint by endpoint, what is due; returns how many deliveries succeeded."""
    now = now or utcnow()
    with Session(engine) as db:
        endpoint_ids = db.scalars(
            select(WebhookEndpoint.id)
            .where(
                col(WebhookEndpoint.enabled),
                _unclaimed(now),
                sa.exists().where(
                    col(WebhookDelivery.endpoint_id) == col(WebhookEndpoint.id),
                    col(WebhookDelivery.state) == WebhookDeliveryState.PENDING,
                    col(WebhookDelivery.next_attempt_at) <= now,
                ),
            )
            .order_by(col(WebhookEndpoint.id))
        ).all()
    return sum(_deliver_endpoint(engine, endpoint_id, now) for endpoint_id in endpoint_ids)


def _unclaimed(now: datetime) -> sa.ColumnElement[bool]:
    return sa.or_(
        col(WebhookEndpoint.claimed_until).is_(None), col(WebhookEndpoint.claimed_until) < now
    )


def _claim(db: Session, endpoint_id: uuid.UUID, now: datetime, *, first: bool) -> bool:
    claim = (
        sa.update(WebhookEndpoint)
        .where(col(WebhookEndpoint.id) == endpoint_id, col(WebhookEndpoint.enabled))
        .values(claimed_until=now + timedelta(seconds=CLAIM_SECONDS))
    )
    if first:
        claim = claim.where(_unclaimed(now))
    claimed = cast(CursorResult[Any], db.execute(claim)).rowcount == 1
    db.commit()
    return claimed


def _deliver_endpoint(engine: Engine, endpoint_id: uuid.UUID, now: datetime) -> int:
    delivered = 0
    with Session(engine) as db:
        if not _claim(db, endpoint_id, now, first=True):
            return 0  # another worker has it
        try:
            for _ in range(_BATCH):
                head = db.scalars(
                    select(WebhookDelivery)
                    .where(
                        col(WebhookDelivery.endpoint_id) == endpoint_id,
                        col(WebhookDelivery.state) == WebhookDeliveryState.PENDING,
                    )
                    .order_by(col(WebhookDelivery.id))
                    .limit(1)
                ).first()
                if head is None or _aware(head.next_attempt_at) > now:
                    break
                endpoint = db.get(WebhookEndpoint, endpoint_id)
                if endpoint is None or not endpoint.enabled:
                    break
                if not _attempt(db, endpoint, head, now):
                    break
                delivered += 1
                if not _claim(db, endpoint_id, now, first=False):
                    break
        finally:
            db.rollback()
            db.execute(
                sa.update(WebhookEndpoint)
                .where(col(WebhookEndpoint.id) == endpoint_id)
                .values(claimed_until=None)
            )
            db.commit()
    return delivered


def _attempt(
    db: Session, endpoint: WebhookEndpoint, delivery: WebhookDelivery, now: datetime
) -> bool:
    """One try of ``delivery``, on record; whether the receiver took it (a 2xx)."""
    settings = get_settings()
    sent_at = utcnow()
    payload = delivery.payload
    headers = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": sign(
            signing_secrets(endpoint, sent_at), delivery.message_id, sent_at, payload
        ),
    }
    answer: outbound.Answer | None = None
    error = ""
    try:
        answer = outbound.post(endpoint.url, payload.encode(), headers)
    except outbound.Refused as refusal:
        error = gettext("en", refusal.message, **refusal.fields)
    except httpx.TimeoutException:
        error = f"No answer within {settings.webhook_timeout_seconds:g} s."
    except httpx.HTTPError as failure:
        error = redact(f"{type(failure).__name__}: {failure}")
    delivery.attempts += 1
    delivery.last_attempt_at = sent_at
    delivery.response_status = answer.status if answer else None
    delivery.latency_ms = answer.latency_ms if answer else None
    delivery.response_excerpt = answer.excerpt[:500] if answer else ""
    delivery.error = error[:300]
    if answer is not None and 200 <= answer.status < 300:
        delivery.state = WebhookDeliveryState.DELIVERED
        db.commit()
        return True
    window = timedelta(hours=settings.webhook_retry_window_hours)
    if now >= _aware(delivery.created_at) + window:
        delivery.state = WebhookDeliveryState.FAILED
        disable_failing(db, endpoint)
    else:
        wait_seconds = min(
            settings.webhook_retry_seconds * 2 ** (delivery.attempts - 1), MAX_WAIT_SECONDS
        )
        delivery.next_attempt_at = now + timedelta(seconds=wait_seconds)
    db.commit()
    return False


def fail_pending(db: Session, endpoint_id: uuid.UUID) -> None:
    """Mark what waits for ``endpoint_id`` as failed: it is disabled, and an endpoint enabled
    again starts with the events that follow."""
    db.execute(
        sa.update(WebhookDelivery)
        .where(
            col(WebhookDelivery.endpoint_id) == endpoint_id,
            col(WebhookDelivery.state) == WebhookDeliveryState.PENDING,
        )
        .values(state=WebhookDeliveryState.FAILED)
    )


def disable_failing(db: Session, endpoint: WebhookEndpoint) -> None:
    """The retry window of one of its deliveries is over: disable ``endpoint`` and tell its
    company's user managers; the caller commits."""
    endpoint.enabled = False
    endpoint.disabled_reason = DISABLED_FAILING
    db.flush()
    fail_pending(db, endpoint.id)
    send_endpoint_disabled(db, endpoint)
    logger.warning("Webhook endpoint %s disabled: failing for the whole retry window", endpoint.id)


_after_commit = AfterCommit("webhooks", deliver_due, "The webhook outbox could not be read")


async def run_delivery_loop(engine: Engine, interval: float = LOOP_SECONDS) -> None:
    """Every ``interval`` seconds, deliver what is due (the retries); runs until cancelled."""
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(deliver_due, engine)
        except Exception as error:
            # The database may be down: the deliveries wait in it, and the loop goes on.
            logger.warning("The webhook outbox could not be read: %s", type(error).__name__)
