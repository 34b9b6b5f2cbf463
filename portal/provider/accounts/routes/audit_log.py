"""The audit log, read by administrators (issue 17, beyond the spec): who logged in, failed or
was throttled, impersonated whom, changed which user, imported what — newest first, filtered by
action, by user e-mail and by day, paged like every collection."""

import datetime as dt
from typing import Annotated, Any

from fastapi import Depends, Request
from pydantic import Field
from sqlmodel import select

from portal.provider.accounts.queries import AUDIT_LOG, AUDITED_PEOPLE, AuditFiltersDep
from portal.provider.platform.db import SessionDep
from portal.provider.platform.hydra import (
    ApiModel,
    Collection,
    PaginationDep,
    iri,
)
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import AuditLog
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import AdminPrincipal

router = ProviderRouter(prefix="/api/audit_log", tags=["audit"])


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
    people = {name: detail.pop(name, None) for name in AUDITED_PEOPLE}
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
    admin: AdminPrincipal,
    page: PaginationDep,
    filters: AuditFiltersDep,
    sort: Annotated[Sort, Depends(AUDIT_LOG.sorting.read)],
) -> Collection[AuditEntryOut]:
    entries, total = AUDIT_LOG.page(db, admin, filters.apply(select(AuditLog)), sort, page)
    return AUDIT_LOG.answer(request, [entry_out(entry) for entry in entries], total, page)
