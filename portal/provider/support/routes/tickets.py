"""Support tickets (spec 2, 3, 6 and 7): the filtered list, one ticket and its attachments.

Any signed-in user with a role may read tickets (spec 6, Menu.tickets); customers see their
companies' tickets only, staff every company's; another company's ticket or attachment is 404.
"""

import uuid
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
from portal.provider.platform.models import Company, Service, Ticket, TicketAttachment
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import (
    one_or_404,
    scope_to_companies,
    through_visible_services,
)
from portal.provider.platform.security import CurrentPrincipal
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
    sort: Annotated[Sort, Depends(TICKETS.sorting.read)],
) -> Collection[TicketOut]:
    """The description is left out of the list (``shortDescription`` is there); the item
    route sends it. A customer's companies are read one branch each, in order, so that a deep
    page costs about what the first does (docs/decisions/deep-invoice-pages.md)."""
    statement = filters.apply(readable_tickets(principal))
    tickets, total = TICKETS.page(db, principal, statement, sort, page, rows=select(Ticket))
    attachments = ticket_attachments(db, [ticket.id for ticket in tickets])
    companies = _companies(db, tickets) if "company" in includes else {}
    members = [
        ticket_out(
            ticket, attachments[ticket.id], language, company=companies.get(ticket.company_id)
        )
        for ticket in tickets
    ]
    return TICKETS.answer(request, members, total, page)


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
