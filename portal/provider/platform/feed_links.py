"""The link of a user's private calendar feed of maintenances, a credential like a session.

The feed is reached by a token alone (calendar programs send no cookie): ``pbc_`` and 43 URL-safe
characters (256 random bits), kept only as its SHA-256. Customers only: staff, who read every
customer's maintenances, get none. It stops answering when the token is regenerated or revoked,
when the user is deleted, deactivated or left without a role, and it ends when the user's
password, roles or companies change, which accounts and the integration API do; each link made
or ended is in the audit log (docs/decisions/maintenance-calendar-feed.md). The feed itself is
the maintenances' (``portal.provider.maintenances.calendar_feed``).
"""

import secrets
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from fastapi import Request
from sqlmodel import Session, col, delete, select

from portal.permissions import is_staff, rules_for
from portal.provider.platform import audit
from portal.provider.platform.models import AuditLog, CalendarFeed, User, utcnow
from portal.provider.platform.people import Person, Someone
from portal.provider.platform.security import Principal
from portal.provider.platform.sessions import token_hash

PREFIX = "pbc_"
# ``last_used_at`` is written at most this often: calendar programs poll.
TOUCH_INTERVAL = timedelta(hours=1)


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
        # Read by the feed's statement itself: a narrowed access shows at the next poll.
        limited_company_ids=None,
    )
    return feed, principal
