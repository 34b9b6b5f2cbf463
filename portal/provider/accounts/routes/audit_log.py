"""The audit log, read by administrators (issue 17, beyond the spec): who logged in, failed or
was throttled, impersonated whom, changed which user, imported what — newest first, filtered by
action, by user e-mail and by day, paged like every collection."""

import datetime as dt
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Query, Request
from pydantic import Field
from sqlmodel import col, select

from portal.provider.platform.db import SessionDep
from portal.provider.platform.hydra import (
    ApiModel,
    Collection,
    IsoDate,
    PaginationDep,
    collection,
    iri,
)
from portal.provider.platform.lists import paginate
from portal.provider.platform.models import AuditLog
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import AdminPrincipal

router = ProviderRouter(prefix="/api/audit_log", tags=["audit"])

# The e-mails every entry may name, kept in ``detail`` so the trail outlives deleted users.
_PEOPLE = ("actor_email", "subject_email", "impersonator_email", "username")


class AuditEntryOut(ApiModel):
    iri: str = Field(alias="@id")
    type: str = Field(default="AuditEntry", alias="@type")
    id: str
    at: dt.datetime
    action: str = Field(description="login, login_failed, impersonation_started, user_updated…")
    actor_email: str | None = Field(
        description="Who acted (the impersonated user's e-mail while impersonating)."
    )
    subject_email: str | None = Field(description="Whom the action was about.")
    impersonator_email: str | None = Field(description="The staff member behind the actor, if any.")
    client_address: str | None
    detail: dict[str, str] = Field(description="The other facts of the entry, as text.")
    count: int = Field(
        description="How many times it happened: above 1 for the entry that counts the refusals "
        "of one address beyond the first ten of a window (no e-mail is kept for those)."
    )


def entry_out(entry: AuditLog) -> AuditEntryOut:
    detail: dict[str, Any] = dict(entry.detail or {})
    people = {name: detail.pop(name, None) for name in _PEOPLE}
    actor = people["actor_email"] or (
        people["username"] if entry.action.startswith("login") else None
    )
    return AuditEntryOut(
        iri=iri("audit_log", entry.id),
        id=str(entry.id),
        at=entry.at,
        action=entry.action,
        actor_email=actor,
        subject_email=people["subject_email"],
        impersonator_email=people["impersonator_email"],
        client_address=entry.client_address,
        detail={key: _text(value) for key, value in detail.items()},
        count=entry.count,
    )


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


@router.get("", response_model=Collection[AuditEntryOut], summary="Read the audit log")
def list_audit_log(
    request: Request,
    db: SessionDep,
    _admin: AdminPrincipal,
    page: PaginationDep,
    action: Annotated[str | None, Query(max_length=60, description="One action, exactly.")] = None,
    email: Annotated[
        str | None,
        Query(max_length=255, description="Part of an e-mail the entry names (actor, subject…)."),
    ] = None,
    after: Annotated[
        IsoDate | None, Query(alias="at[after]", description="From this day on (UTC).")
    ] = None,
    before: Annotated[
        IsoDate | None, Query(alias="at[before]", description="Up to this day included (UTC).")
    ] = None,
) -> Collection[AuditEntryOut]:
    statement = select(AuditLog).order_by(col(AuditLog.at).desc(), col(AuditLog.id))
    if action:
        statement = statement.where(AuditLog.action == action)
    if email and email.strip():
        wanted = email.strip().lower()
        detail = col(AuditLog.detail)
        statement = statement.where(
            sa.or_(
                *(
                    sa.func.lower(detail[name].as_string()).contains(wanted, autoescape=True)
                    for name in _PEOPLE
                )
            )
        )
    if after is not None:
        statement = statement.where(col(AuditLog.at) >= _midnight(after))
    if before is not None:
        statement = statement.where(col(AuditLog.at) < _midnight(before + dt.timedelta(days=1)))
    entries, total = paginate(db, statement, page)
    return collection(request, "AuditEntry", [entry_out(e) for e in entries], total, page)


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
