"""The audit log: logins, refusals and impersonations, with both users, time and address."""

from typing import Any

from fastapi import Request
from sqlmodel import Session

from portal.provider.models import AuditLog
from portal.provider.people import Someone
from portal.provider.sessions import client_address


def record(
    db: Session,
    request: Request,
    action: str,
    *,
    actor: Someone | None = None,
    subject: Someone | None = None,
    **detail: Any,
) -> None:
    """Add an entry to ``db``; the caller's commit writes it with the change it describes."""
    if actor is not None:
        detail["actor_email"] = actor.email
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
