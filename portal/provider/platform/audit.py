"""The audit log: logins, refusals and impersonations, with both users, time and address."""

import uuid
from typing import Any

from fastapi import Request
from sqlmodel import Session, col

from portal.provider.platform.db import upsert
from portal.provider.platform.models import AuditLog, utcnow
from portal.provider.platform.people import Someone
from portal.provider.platform.rate_limits import Limit, count_in_window
from portal.provider.platform.sessions import client_address

# Refusals of one action from one address written one by one in a window; the rest are counted
# on a single entry (docs/decisions/audit-refusals.md).
ITEMISED_REFUSALS = 10
# Names the entry that counts an address's refusals of a window (a UUID 5 in this namespace).
_SUMMARY_NAMESPACE = uuid.UUID("6f0c3a52-8d3e-4f7e-9a51-3c1b2e4d5a60")


def record(
    db: Session,
    request: Request,
    action: str,
    *,
    actor: Someone | None = None,
    subject: Someone | None = None,
    impersonator: Someone | None = None,
    **detail: Any,
) -> None:
    """Add an entry to ``db``; the caller's commit writes it with the change it describes.
    A write made while impersonating names the staff member behind ``actor``
    (``impersonator``: the principal's)."""
    if actor is not None:
        detail["actor_email"] = actor.email
    if impersonator is not None:
        detail["impersonator_email"] = impersonator.email
    if subject is not None:
        detail["subject_email"] = subject.email
    db.add(
        AuditLog(
            actor_id=actor.id if actor else None,
            subject_id=subject.id if subject else None,
            action=action,
            detail=detail,
            client_address=client_address(request),
        )
    )


def record_refusal(
    db: Session,
    request: Request,
    action: str,
    limits: list[tuple[Limit, str]],
    *,
    subject: Someone | None = None,
    **detail: Any,
) -> None:
    """A refused login, code or reset, which anyone may send by the thousand (issue 47, item
    17): the first ``ITEMISED_REFUSALS`` of ``action`` from one address in the window of
    ``limits`` (the rate limits guarding it) are written as ``record`` writes them, each with
    the e-mail typed; the rest add to one entry of that address and window, whose count says how
    many. A flood from one address writes a bounded number of rows."""
    address = client_address(request) or ""
    cap = Limit(f"audit:{action}", ITEMISED_REFUSALS, limits[0][0].window)
    window_start, count = count_in_window(db, cap, address)
    if count <= cap.limit:
        record(db, request, action, subject=subject, **detail)
        return
    window = f"{cap.key(address)}:{window_start.timestamp()}"
    now = utcnow()
    db.exec(
        upsert(db, AuditLog)
        .values(
            id=uuid.uuid5(_SUMMARY_NAMESPACE, window),
            at=now,
            action=action,
            detail={},
            client_address=address or None,
            count=1,
        )
        # The entry moves to the top of the log with each new refusal.
        .on_conflict_do_update(
            index_elements=["id"], set_={"count": col(AuditLog.count) + 1, "at": now}
        )
    )
