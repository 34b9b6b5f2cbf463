"""Support tickets (spec 2, 3, 6 and 7): the filtered list, one ticket and its attachments.

Any signed-in user with a role may read tickets (spec 6, Menu.tickets); customers see their
companies' tickets only, staff every company's; another company's ticket or attachment is 404.
"""

import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.responses import FileResponse
from sqlalchemy import case
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import VIEW_TICKETS_MENU
from portal.provider.platform.db import SessionDep, planned_once
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, PaginationDep, collection
from portal.provider.platform.json_lists import json_list
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import paginate_branches, requested_sort
from portal.provider.platform.models import (
    Company,
    Service,
    Ticket,
    TicketAttachment,
    TicketPriority,
    TicketStatus,
    fold,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import (
    company_branches,
    one_or_404,
    scope_to_companies,
    through_visible_services,
)
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.support.schemas.tickets import TicketIncludes, TicketOut, ticket_out

router = ProviderRouter(prefix="/api/tickets", tags=["tickets"])
SUBJECT_MAX_LENGTH = 200

_PRIORITY_RANK = case(
    {priority.value: rank for rank, priority in enumerate(TicketPriority)},
    value=col(Ticket.priority),
)
_SORTABLE = {
    "dateCreated": col(Ticket.date_created),
    "id": col(Ticket.number),
    "number": col(Ticket.number),
    "status": col(Ticket.status),
    "priority": _PRIORITY_RANK,
    "subject": col(Ticket.search_subject),
    "accountName": col(Ticket.account_name),
}


async def ticket_sort(request: Request) -> list[tuple[Any, bool]]:
    """The requested order (newest first by default, spec 2), then the number to break ties in
    the direction of the last field, so one index ``(company, date, number)`` serves both
    directions. A field named twice keeps its first direction."""
    keys: list[tuple[Any, bool]] = []
    for field, descending in requested_sort(request, _SORTABLE):
        column = _SORTABLE[field]
        if all(column is not seen for seen, _ in keys):
            keys.append((column, descending))
    keys = keys or [(col(Ticket.date_created), True)]
    number = col(Ticket.number)
    if all(column is not number for column, _ in keys):
        keys.append((number, keys[-1][1]))
    return keys


@dataclass(frozen=True)
class TicketFilters:
    number: int | None
    impossible: bool  # an id that no ticket can have
    statuses: tuple[TicketStatus, ...]
    subject: str


async def ticket_filters(
    ticket_id: Annotated[
        str | None,
        Query(alias="id", max_length=50, description="The ticket's number (#1234 or 1234)."),
    ] = None,
    status: Annotated[list[TicketStatus] | None, Query(alias="status[]")] = None,
    status_plain: Annotated[
        list[TicketStatus] | None, Query(alias="status", include_in_schema=False)
    ] = None,
    subject: Annotated[
        str | None,
        Query(
            max_length=SUBJECT_MAX_LENGTH,
            description="Words of the subject; any case, with or without accents.",
        ),
    ] = None,
) -> TicketFilters:
    text = (ticket_id or "").strip().lstrip("#").strip()
    number = int(text) if text.isdigit() and len(text) <= 12 else None
    return TicketFilters(
        number=number,
        impossible=bool(text) and number is None,
        statuses=tuple(dict.fromkeys([*(status or ()), *(status_plain or ())])),
        subject=fold(subject or ""),
    )


TicketFiltersDep = Annotated[TicketFilters, Depends(ticket_filters)]


def _like_pattern(word: str) -> str:
    escaped = word.replace("/", "//").replace("%", "/%").replace("_", "/_")
    return f"%{escaped}%"


def readable_tickets(principal: Principal) -> SelectOfScalar[Ticket]:
    """Every ticket, once the principal may read tickets (not yet scoped); 403 otherwise."""
    if not principal.allows(VIEW_TICKETS_MENU):
        raise ApiError(403)
    return select(Ticket)


def visible_tickets(principal: Principal) -> SelectOfScalar[Ticket]:
    """The tickets ``principal`` may read: their companies' (staff: every company's)."""
    return scope_to_companies(readable_tickets(principal), principal, Ticket.company_id)


def filter_tickets(statement: SelectOfScalar[Ticket], filters: TicketFilters) -> SelectOfScalar:
    if filters.impossible:
        return statement.where(col(Ticket.number).is_(None))
    if filters.number is not None:
        statement = statement.where(Ticket.number == filters.number)
    if filters.statuses:
        statement = statement.where(col(Ticket.status).in_(filters.statuses))
    for word in filters.subject.split():
        statement = statement.where(
            col(Ticket.search_subject).like(_like_pattern(word), escape="/")
        )
    return statement


# A ticket's files, listed by the database (docs/decisions/json-lists.md): their rows are not
# worth ORM objects, and a selectin loader cost a list of tickets an eighth of its time.
_ATTACHMENTS = json_list(
    {
        "id": col(TicketAttachment.id),
        "size": col(TicketAttachment.size),
        "filename": col(TicketAttachment.filename),
    },
    col(TicketAttachment.ticket_id) == col(Ticket.id),
)


def ticket_attachments(db: Session, ids: list[uuid.UUID]) -> dict[uuid.UUID, list[dict[str, Any]]]:
    """The attachments of the tickets ``ids``, in one statement."""
    if not ids:
        return {}
    statement = select(col(Ticket.id), _ATTACHMENTS).where(col(Ticket.id).in_(ids))
    return {row[0]: row[1] for row in db.execute(planned_once(statement))}


def _companies(db: SessionDep, tickets: list[Ticket]) -> dict[uuid.UUID, Company]:
    ids = {ticket.company_id for ticket in tickets}
    if not ids:
        return {}
    return {c.id: c for c in db.exec(select(Company).where(col(Company.id).in_(ids)))}


@router.get("", response_model=Collection[TicketOut])
def list_tickets(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    includes: TicketIncludes,
    language: LanguageDep,
    filters: TicketFiltersDep,
    sort: Annotated[list[tuple[Any, bool]], Depends(ticket_sort)],
) -> Collection[TicketOut]:
    """The description is left out of the list (``shortDescription`` is there); the item
    route sends it. A customer's companies are read one branch each, in order, so that a deep
    page costs about what the first does (docs/decisions/deep-invoice-pages.md)."""
    statement = filter_tickets(readable_tickets(principal), filters)
    scoped = scope_to_companies(statement, principal, Ticket.company_id)
    branches = company_branches(statement, principal, Ticket.company_id)
    tickets, total = paginate_branches(
        db, scoped, branches, sort, col(Ticket.id), select(Ticket), page
    )
    attachments = ticket_attachments(db, [ticket.id for ticket in tickets])
    companies = _companies(db, tickets) if "company" in includes else {}
    members = [
        ticket_out(
            ticket, attachments[ticket.id], language, company=companies.get(ticket.company_id)
        )
        for ticket in tickets
    ]
    return collection(request, "Ticket", members, total, page)


@router.get("/{ticket_id}", response_model=TicketOut)
def get_ticket(
    ticket_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: TicketIncludes,
    language: LanguageDep,
) -> TicketOut:
    statement = visible_tickets(principal).where(Ticket.id == ticket_id)
    ticket = one_or_404(db, statement)
    company = db.get(Company, ticket.company_id) if "company" in includes else None
    service_id = None
    if ticket.service_reference:
        service_id = db.exec(
            through_visible_services(
                select(Service.id).where(Service.reference == ticket.service_reference),
                principal,
            )
        ).first()
    return ticket_out(
        ticket,
        ticket_attachments(db, [ticket.id])[ticket.id],
        language,
        company=company,
        detail=True,
        service_iri=f"/api/services/{service_id}" if service_id else None,
    )


@router.get(
    "/{ticket_id}/attachments/{attachment_id}", response_class=FileResponse, responses=file_answer()
)
def download_attachment(
    ticket_id: uuid.UUID, attachment_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    """An attachment of the ticket, reached through the ticket's scope."""
    statement = scope_to_companies(
        select(TicketAttachment)
        .join(Ticket, col(Ticket.id) == col(TicketAttachment.ticket_id))
        .where(TicketAttachment.id == attachment_id, TicketAttachment.ticket_id == ticket_id),
        principal,
        Ticket.company_id,
    )
    if not principal.allows(VIEW_TICKETS_MENU):
        raise ApiError(403)
    found = one_or_404(db, statement)
    return attachment(found.file_path, found.filename, found.content_type)
