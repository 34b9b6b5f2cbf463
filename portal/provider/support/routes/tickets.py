"""Support tickets (spec 2, 3, 6 and 7): the filtered list, one ticket and its attachments.

Any signed-in user with a role may read tickets (spec 6, Menu.tickets); customers see their
companies' tickets only, staff every company's; another company's ticket or attachment is 404.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import FileResponse
from sqlmodel import Session, col, select

from portal.permissions import VIEW_TICKETS_MENU
from portal.provider.platform.db import SessionDep, planned_once
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.json_lists import json_list
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import (
    Company,
    Service,
    Ticket,
    TicketAttachment,
    TicketReadMark,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import (
    one_or_404,
    through_visible_services,
    ticket_condition,
)
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.support.conversations import standing
from portal.provider.support.queries import (
    TICKETS,
    TicketFiltersDep,
    readable_tickets,
    visible_tickets,
)
from portal.provider.support.schemas.tickets import TicketIncludes, TicketOut, ticket_out

router = ProviderRouter(prefix="/api/tickets", tags=["tickets"])
# A ticket's files, listed by the database (docs/decisions/json-lists.md): their rows are not
# worth ORM objects, and a selectin loader cost a list of tickets an eighth of its time.
# The files of the ticket itself; a message's files are listed with the message.
_ATTACHMENTS = json_list(
    {
        "id": col(TicketAttachment.id),
        "size": col(TicketAttachment.size),
        "filename": col(TicketAttachment.filename),
    },
    col(TicketAttachment.ticket_id) == col(Ticket.id),
    col(TicketAttachment.message_id).is_(None),
)


@dataclass(frozen=True)
class TicketExtras:
    """What a ticket's answer reads beside the ticket: its files and the reader's read mark."""

    attachments: list[dict[str, Any]]
    read_at: datetime | None


def ticket_extras(
    db: Session, ids: list[uuid.UUID], user_id: uuid.UUID
) -> dict[uuid.UUID, TicketExtras]:
    """The attachments of the tickets ``ids`` and when ``user_id`` last read each, in one
    statement."""
    if not ids:
        return {}
    read_at = (
        select(TicketReadMark.read_at)
        .where(col(TicketReadMark.ticket_id) == col(Ticket.id), TicketReadMark.user_id == user_id)
        .scalar_subquery()
    )
    statement = select(col(Ticket.id), _ATTACHMENTS, read_at).where(col(Ticket.id).in_(ids))
    return {row[0]: TicketExtras(row[1], row[2]) for row in db.execute(planned_once(statement))}


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
    sort: Annotated[Sort, Depends(TICKETS.sorting.read)],
) -> Collection[TicketOut]:
    """The description is left out of the list (``shortDescription`` is there); the item
    route sends it. A customer's companies are read one branch each, in order, so that a deep
    page costs about what the first does (docs/decisions/deep-invoice-pages.md)."""
    statement = filters.apply(readable_tickets(principal))
    tickets, total = TICKETS.page(db, principal, statement, sort, page, rows=select(Ticket))
    extras = ticket_extras(db, [ticket.id for ticket in tickets], principal.user.id)
    companies = _companies(db, tickets) if "company" in includes else {}
    members = [
        ticket_out(
            ticket,
            extras[ticket.id].attachments,
            language,
            company=companies.get(ticket.company_id),
            standing=standing(principal, ticket, extras[ticket.id].read_at),
        )
        for ticket in tickets
    ]
    return TICKETS.answer(request, members, total, page)


def one_ticket_out(
    db: Session,
    principal: Principal,
    ticket_id: uuid.UUID,
    includes: frozenset[str],
    language: str,
) -> TicketOut:
    """The ticket ``ticket_id`` as its item route answers it; 404 outside the caller's scope."""
    statement = visible_tickets(principal).where(Ticket.id == ticket_id)
    ticket = one_or_404(db, statement)
    company = db.get(Company, ticket.company_id) if "company" in includes else None
    service_id = None
    if ticket.service_id:
        service_id = db.exec(
            through_visible_services(
                select(Service.id).where(Service.id == ticket.service_id), principal
            )
        ).first()
    extras = ticket_extras(db, [ticket.id], principal.user.id)[ticket.id]
    return ticket_out(
        ticket,
        extras.attachments,
        language,
        company=company,
        detail=True,
        service_iri=f"/api/services/{service_id}" if service_id else None,
        standing=standing(principal, ticket, extras.read_at),
    )


@router.get("/{ticket_id}", response_model=TicketOut)
def get_ticket(
    ticket_id: uuid.UUID,
    db: SessionDep,
    principal: CurrentPrincipal,
    includes: TicketIncludes,
    language: LanguageDep,
) -> TicketOut:
    return one_ticket_out(db, principal, ticket_id, includes, language)


@router.get(
    "/{ticket_id}/attachments/{attachment_id}", response_class=FileResponse, responses=file_answer()
)
def download_attachment(
    ticket_id: uuid.UUID, attachment_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    """An attachment of the ticket, reached through the ticket's scope."""
    statement = (
        select(TicketAttachment)
        .join(Ticket, col(Ticket.id) == col(TicketAttachment.ticket_id))
        .where(
            TicketAttachment.id == attachment_id,
            TicketAttachment.ticket_id == ticket_id,
            ticket_condition(principal),
        )
    )
    if not principal.allows(VIEW_TICKETS_MENU):
        raise ApiError(403)
    found = one_or_404(db, statement)
    return attachment(found.file_path, found.filename, found.content_type)
