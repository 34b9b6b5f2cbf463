"""A user's private iCalendar feed (RFC 5545) of the maintenances impacting their services.

The feed is reached by a token alone (calendar programs send no cookie): ``pbc_`` and 43 URL-safe
characters (256 random bits), kept only as its SHA-256. It reads as its user: the same scope as
the maintenances list, the same impacted services and contacts as the dialog, in the language the
link was made in. Customers only: staff, who read every customer's maintenances, get none. It
stops answering when the token is regenerated or revoked, when the user is deleted, deactivated
or left without a role, and it ends when the user's password, roles or companies change; each
link made or ended is in the audit log (docs/decisions/maintenance-calendar-feed.md).
"""

import secrets
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from fastapi import Request
from sqlalchemy import Row
from sqlmodel import Session, col, delete, select

from portal.i18n import gettext
from portal.permissions import is_staff, rules_for
from portal.provider import ical
from portal.provider.maintenance_scope import visible_contacts, visible_maintenances
from portal.provider.platform import audit
from portal.provider.platform.models import (
    AuditLog,
    CalendarFeed,
    Maintenance,
    MaintenanceContact,
    MaintenanceService,
    MaintenanceStatus,
    Service,
    ServiceType,
    User,
    utcnow,
)
from portal.provider.platform.people import Person, Someone
from portal.provider.platform.scoping import scope_to_companies
from portal.provider.platform.security import Principal
from portal.provider.platform.sessions import token_hash
from portal.provider.schemas.maintenances import CLASSIFICATION_LABELS, STATUS_LABELS, TYPE_LABELS
from portal.provider.schemas.services import type_label
from portal.settings import get_settings

PREFIX = "pbc_"
# What a feed holds: every upcoming maintenance and those of the last three months, at most this
# many (a calendar program reads the whole feed at every refresh).
HISTORY = timedelta(days=92)
MAX_EVENTS = 2_000
# ``last_used_at`` is written at most this often: calendar programs poll.
TOUCH_INTERVAL = timedelta(hours=1)
PRODID = "-//Patchbay//Maintenances//EN"
REFRESH = "PT1H"  # RFC 5545 duration


def new_token() -> str:
    return PREFIX + secrets.token_urlsafe(32)


def feed_path(token: str) -> str:
    """The provider's public path of a feed."""
    return f"/feeds/maintenances/{token}.ics"


def issue_feed(db: Session, user: Someone, language: str) -> tuple[CalendarFeed, str]:
    """A new feed for ``user``, replacing the previous one (whose URL stops working); answers
    the row and the token, shown once. The caller commits."""
    revoke_feed(db, user)
    token = new_token()
    feed = CalendarFeed(user_id=user.id, token_hash=token_hash(token), language=language)
    db.add(feed)
    return feed, token


def revoke_feed(db: Session, user: Someone) -> bool:
    """Deletes ``user``'s feed; False when there was none. The caller commits."""
    feed = user_feed(db, user)
    if feed is None:
        return False
    db.delete(feed)
    db.flush()
    return True


# What ends a user's feed link besides the password (whoever held the account may have copied
# the link): a change of what the link shows, the user's roles and companies.
_ACCESS_FIELDS = frozenset({"roles", "company", "auxiliary_companies"})


def feed_end_reason(changed: Iterable[str]) -> str | None:
    """``password`` or ``access`` when a change of the fields ``changed`` (attribute names) ends
    the user's feed link, else None."""
    fields = set(changed)
    if "password" in fields:
        return "password"
    return "access" if fields & _ACCESS_FIELDS else None


def end_feeds(
    db: Session,
    users: Sequence[Someone],
    reason: str,
    request: Request | None = None,
    actor: Someone | None = None,
) -> None:
    """Ends the feed links of ``users`` whose password or access (roles, companies) changed, and
    records each one ended with ``reason``; ``request`` and ``actor`` say where the change came
    from, when it came through the API. The caller commits."""
    by_id = {user.id: user for user in users}
    if not by_id:
        return
    owners = select(CalendarFeed.user_id).where(col(CalendarFeed.user_id).in_(by_id))
    ended = db.exec(owners).all()
    if not ended:
        return
    db.exec(delete(CalendarFeed).where(col(CalendarFeed.user_id).in_(ended)))
    for user_id in ended:
        record_feed_event(db, "calendar_feed.revoke", by_id[user_id], request, actor, reason=reason)


def record_feed_event(
    db: Session,
    action: str,
    user: Someone,
    request: Request | None,
    actor: Someone | None = None,
    **detail: Any,
) -> None:
    """An audit entry about ``user``'s feed link. A change made by an integration batch has no
    request here: recorded without actor or address, the batch's own entry says who sent it."""
    if request is not None:
        audit.record(db, request, action, actor=actor or user, subject=user, **detail)
        return
    detail["subject_email"] = user.email
    db.add(AuditLog(subject_id=user.id, action=action, detail=detail))


def user_feed(db: Session, user: Someone) -> CalendarFeed | None:
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
    if is_staff(user.roles):
        return None  # a staff member's link, made before staff had none
    now = utcnow()
    if feed.last_used_at is None or now - feed.last_used_at >= TOUCH_INTERVAL:
        feed.last_used_at = now
        db.add(feed)
        db.commit()
    principal = Principal(
        user=Person.of(user),
        impersonator=None,
        session_id=None,
        company_ids=frozenset(user.company_ids),
        rules=rules,
    )
    return feed, principal


# What an event shows of a maintenance: read as plain rows, not entities, which cost a heavy
# customer's feed more than writing it (docs/decisions/calendar-feed-speed.md).
_WINDOW = (
    col(Maintenance.id),
    col(Maintenance.reference),
    col(Maintenance.name),
    col(Maintenance.type),
    col(Maintenance.classification),
    col(Maintenance.status),
    col(Maintenance.date_start),
    col(Maintenance.date_end),
    col(Maintenance.updated_at),
    col(Maintenance.sequence),
)


def _windows(db: Session, principal: Principal, since: datetime) -> Sequence[Row[Any]]:
    """The maintenances of the feed, earliest first: those ending after ``since``."""
    statement = (
        visible_maintenances(principal)
        .where(col(Maintenance.date_end) >= since)
        .order_by(col(Maintenance.date_start), col(Maintenance.reference))
        .limit(MAX_EVENTS)
        .with_only_columns(*_WINDOW)
    )
    return db.execute(statement).all()


def _impacted_services(
    db: Session, principal: Principal, maintenance_ids: list[uuid.UUID], language: str
) -> dict[uuid.UUID, list[str]]:
    """Each maintenance's services that the principal may see, as "reference (type)", in one
    query."""
    found: dict[uuid.UUID, list[str]] = defaultdict(list)
    if not maintenance_ids:
        return found
    pairs = (
        select(MaintenanceService.maintenance_id, Service.reference, ServiceType)
        .join(Service, col(Service.id) == col(MaintenanceService.service_id))
        .join(ServiceType, col(ServiceType.id) == col(Service.type_id))
        .where(col(MaintenanceService.maintenance_id).in_(maintenance_ids))
    )
    # The one scoping helper takes a one-column select; the condition is the same for pairs.
    statement = cast(Any, scope_to_companies)(pairs, principal, Service.company_id)
    for maintenance_id, reference, kind in db.execute(statement.order_by(col(Service.reference))):
        found[maintenance_id].append(f"{reference} ({type_label(kind, language)})")
    return found


def _contacts(
    db: Session, principal: Principal, maintenance_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[str]]:
    """The e-mails of each maintenance's contacts that the principal may see, in one query."""
    found: dict[uuid.UUID, list[str]] = defaultdict(list)
    if not maintenance_ids:
        return found
    contact = MaintenanceContact
    statement = select(contact.maintenance_id, contact.email, contact.company_id).where(
        col(contact.maintenance_id).in_(maintenance_ids)
    )
    for row in visible_contacts(db.execute(statement).all(), principal):
        found[row.maintenance_id].append(row.email)
    return found


def _description(
    maintenance: Row[Any],
    classification: str,
    services: list[str],
    contacts: list[str],
    language: str,
) -> str:
    # Each label in a ``gettext`` call outside any f-string, where the catalogs' extraction
    # finds it.
    reference, kind = gettext(language, "Reference"), gettext(language, "Type")
    classified, status = gettext(language, "Classification"), gettext(language, "Status")
    impacted, reached = gettext(language, "Impacted services"), gettext(language, "Contacts")
    lines = [
        maintenance.name,
        "",
        f"{reference}: {maintenance.reference}",
        f"{kind}: {gettext(language, TYPE_LABELS[maintenance.type])}",
        f"{classified}: {classification}",
        f"{status}: {gettext(language, STATUS_LABELS[maintenance.status])}",
        "",
        f"{impacted}:",
        *(f"- {service}" for service in services),
    ]
    if contacts:
        lines += ["", f"{reached}: {', '.join(contacts)}"]
    return "\n".join(lines)


def _event(
    maintenance: Row[Any], services: list[str], contacts: list[str], language: str, domain: str
) -> list[bytes]:
    classification = gettext(language, CLASSIFICATION_LABELS[maintenance.classification])
    summary = f"{maintenance.reference} · {classification} · {maintenance.name}"
    description = _description(maintenance, classification, services, contacts, language)
    changed = ical.utc(maintenance.updated_at)
    cancelled = maintenance.status is MaintenanceStatus.CANCELLED
    return [
        ical.line("SUMMARY", ical.text(summary)),
        ical.line("DTSTART", ical.utc(maintenance.date_start)),
        ical.line("DTEND", ical.utc(maintenance.date_end)),
        ical.line("DTSTAMP", changed),
        # Stable across refreshes and changes, unique beyond this provider.
        ical.line("UID", ical.text(f"{maintenance.id}@{domain}")),
        ical.line("SEQUENCE", str(maintenance.sequence)),
        ical.line("CATEGORIES", ical.text(classification)),
        ical.line("DESCRIPTION", ical.text(description)),
        ical.line("LAST-MODIFIED", changed),
        ical.line("STATUS", "CANCELLED" if cancelled else "CONFIRMED"),
        # A maintenance informs; it does not make the reader busy.
        ical.line("TRANSP", "TRANSPARENT"),
    ]


def build_feed(
    db: Session, principal: Principal, language: str, now: datetime | None = None
) -> bytes:
    """The iCalendar text of the maintenances the principal sees, from three months back."""
    maintenances = _windows(db, principal, (now or utcnow()) - HISTORY)
    ids = [maintenance.id for maintenance in maintenances]
    services = _impacted_services(db, principal, ids, language)
    contacts = _contacts(db, principal, ids)
    name = ical.text(
        gettext(language, "{company} maintenances", company=get_settings().company_name)
    )
    lines = [
        ical.line("VERSION", "2.0"),
        ical.line("PRODID", ical.text(PRODID)),
        ical.line("CALSCALE", "GREGORIAN"),
        ical.line("METHOD", "PUBLISH"),
        ical.line("NAME", name),
        ical.line("X-WR-CALNAME", name),
        # Calendar programs are asked to read the feed again after an hour.
        ical.line("REFRESH-INTERVAL;VALUE=DURATION", REFRESH),
        ical.line("X-PUBLISHED-TTL", REFRESH),
    ]
    domain = get_settings().staff_mail_domain
    for maintenance in maintenances:
        event = _event(
            maintenance, services[maintenance.id], contacts[maintenance.id], language, domain
        )
        lines += ical.component("VEVENT", event)
    return b"".join(ical.component("VCALENDAR", lines))
