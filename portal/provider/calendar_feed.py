"""A user's private iCalendar feed (RFC 5545) of the maintenances impacting their services.

The feed is reached by a token alone (calendar programs send no cookie): ``pbc_`` and 43 URL-safe
characters (256 random bits), kept only as its SHA-256. It reads as its user: the same scope as
the maintenances list, the same impacted services and contacts as the dialog, in the language the
link was made in. It stops answering when the token is regenerated or revoked, and when the user
is deleted, deactivated or left without a role (docs/decisions/maintenance-calendar-feed.md).
"""

import secrets
import uuid
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any, cast

from icalendar import Calendar, Event, vDuration, vText
from sqlmodel import Session, col, select

from portal.i18n import gettext
from portal.permissions import rules_for
from portal.provider.db import preload
from portal.provider.maintenance_scope import visible_contacts, visible_maintenances
from portal.provider.models import (
    CalendarFeed,
    Maintenance,
    MaintenanceService,
    MaintenanceStatus,
    Service,
    User,
    utcnow,
)
from portal.provider.schemas.maintenances import CLASSIFICATION_LABELS, STATUS_LABELS, TYPE_LABELS
from portal.provider.schemas.services import type_label
from portal.provider.scoping import scope_to_companies
from portal.provider.security import Principal
from portal.provider.sessions import token_hash
from portal.settings import get_settings

PREFIX = "pbc_"
# What a feed holds: every upcoming maintenance and those of the last three months, at most this
# many (a calendar program reads the whole feed at every refresh).
HISTORY = timedelta(days=92)
MAX_EVENTS = 2_000
# ``last_used_at`` is written at most this often: calendar programs poll.
TOUCH_INTERVAL = timedelta(hours=1)
PRODID = "-//Patchbay//Maintenances//EN"


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def feed_path(token: str) -> str:
    """The provider's public path of a feed."""
    return f"/feeds/maintenances/{token}.ics"


def issue_feed(db: Session, user: User, language: str) -> tuple[CalendarFeed, str]:
    """A new feed for ``user``, replacing the previous one (whose URL stops working); answers
    the row and the token, shown once. The caller commits."""
    revoke_feed(db, user)
    token = new_token()
    feed = CalendarFeed(user_id=user.id, token_hash=token_hash(token), language=language)
    db.add(feed)
    return feed, token


def revoke_feed(db: Session, user: User) -> bool:
    """Deletes ``user``'s feed; False when there was none. The caller commits."""
    feed = user_feed(db, user)
    if feed is None:
        return False
    db.delete(feed)
    db.flush()
    return True


def user_feed(db: Session, user: User) -> CalendarFeed | None:
    return db.exec(select(CalendarFeed).where(CalendarFeed.user_id == user.id)).first()


def feed_reader(db: Session, token: str) -> tuple[CalendarFeed, Principal] | None:
    """The feed of ``token`` and the principal it reads as, or None when the token is unknown or
    its user may no longer read anything."""
    if not token.startswith(PREFIX):
        return None
    feed = db.exec(select(CalendarFeed).where(CalendarFeed.token_hash == token_hash(token))).first()
    if feed is None:
        return None
    user = db.get(User, feed.user_id)
    rules = rules_for(user.roles) if user is not None else frozenset()
    if user is None or not user.is_active or not user.has_accepted_terms or not rules:
        return None
    now = utcnow()
    if feed.last_used_at is None or now - feed.last_used_at >= TOUCH_INTERVAL:
        feed.last_used_at = now
        db.add(feed)
        db.commit()
    principal = Principal(
        user=user,
        impersonator=None,
        session_id=None,
        company_ids=frozenset(user.company_ids),
        rules=rules,
    )
    return feed, principal


def _impacted_services(
    db: Session, principal: Principal, maintenance_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[Service]]:
    """The services of each maintenance that the principal may see, in one query."""
    found: dict[uuid.UUID, list[Service]] = defaultdict(list)
    if not maintenance_ids:
        return found
    pairs = (
        select(MaintenanceService.maintenance_id, Service)
        .join(Service, col(Service.id) == col(MaintenanceService.service_id))
        .where(col(MaintenanceService.maintenance_id).in_(maintenance_ids))
    )
    # The one scoping helper takes a one-column select; the condition is the same for pairs.
    statement = cast(Any, scope_to_companies)(pairs, principal, Service.company_id).options(
        *preload(Service.type)
    )
    for maintenance_id, service in db.exec(statement.order_by(col(Service.reference))).all():
        found[maintenance_id].append(service)
    return found


def _description(
    maintenance: Maintenance, services: list[Service], contacts: list[str], language: str
) -> str:
    # Each label in a ``gettext`` call outside any f-string, where the catalogs' extraction
    # finds it.
    reference, kind = gettext(language, "Reference"), gettext(language, "Type")
    classification, status = gettext(language, "Classification"), gettext(language, "Status")
    impacted, reached = gettext(language, "Impacted services"), gettext(language, "Contacts")
    lines = [
        maintenance.name,
        "",
        f"{reference}: {maintenance.reference}",
        f"{kind}: {gettext(language, TYPE_LABELS[maintenance.type])}",
        f"{classification}: {gettext(language, CLASSIFICATION_LABELS[maintenance.classification])}",
        f"{status}: {gettext(language, STATUS_LABELS[maintenance.status])}",
        "",
        f"{impacted}:",
        *(f"- {s.reference} ({type_label(s.type, language)})" for s in services),
    ]
    if contacts:
        lines += ["", f"{reached}: {', '.join(contacts)}"]
    return "\n".join(lines)


def _event(
    maintenance: Maintenance, services: list[Service], contacts: list[str], language: str
) -> Event:
    classification = gettext(language, CLASSIFICATION_LABELS[maintenance.classification])
    event = Event()
    # Stable across refreshes and changes, unique beyond this provider.
    event.add("uid", f"{maintenance.id}@{get_settings().staff_mail_domain}")
    event.add("summary", f"{maintenance.reference} · {classification} · {maintenance.name}")
    event.add("dtstart", maintenance.date_start)
    event.add("dtend", maintenance.date_end)
    event.add("dtstamp", maintenance.updated_at)
    event.add("last-modified", maintenance.updated_at)
    event.add("sequence", maintenance.sequence)
    cancelled = maintenance.status is MaintenanceStatus.CANCELLED
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    # A maintenance informs; it does not make the reader busy.
    event.add("transp", "TRANSPARENT")
    event.add("categories", [classification])
    event.add("description", vText(_description(maintenance, services, contacts, language)))
    return event


def build_feed(
    db: Session, principal: Principal, language: str, now: datetime | None = None
) -> bytes:
    """The iCalendar text of the maintenances the principal sees, from three months back."""
    since = (now or utcnow()) - HISTORY
    statement = (
        visible_maintenances(principal)
        .where(col(Maintenance.date_end) >= since)
        .order_by(col(Maintenance.date_start), col(Maintenance.reference))
        .limit(MAX_EVENTS)
        .options(*preload(Maintenance.contacts))
    )
    maintenances = list(db.exec(statement).all())
    services = _impacted_services(db, principal, [m.id for m in maintenances])
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    name = gettext(language, "{company} maintenances", company=get_settings().company_name)
    calendar.add("x-wr-calname", name)
    calendar.add("name", name)
    calendar.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    # An X- property has no known type: unwrapped, the duration would be written "1:00:00".
    calendar.add("x-published-ttl", vDuration(timedelta(hours=1)))
    for maintenance in maintenances:
        contacts = [c.email for c in visible_contacts(maintenance.contacts, principal)]
        calendar.add_component(_event(maintenance, services[maintenance.id], contacts, language))
    return calendar.to_ical()
