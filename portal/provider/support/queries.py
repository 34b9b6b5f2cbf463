"""What the support lists read, declared once with their filters
(``portal.provider.platform.lists``): tickets, and who may read them."""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query
from sqlalchemy import case
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.permissions import VIEW_TICKETS_MENU
from portal.provider.platform.errors import ApiError
from portal.provider.platform.lists import ListOf, S, Sorting, either, words
from portal.provider.platform.models import Ticket, TicketPriority, TicketStatus, fold
from portal.provider.platform.scoping import TICKETS_SCOPE
from portal.provider.platform.security import Principal

SUBJECT_MAX_LENGTH = 200

_PRIORITY_RANK = case(
    {priority.value: rank for rank, priority in enumerate(TicketPriority)},
    value=col(Ticket.priority),
)
# Spec 2: the newest first. The number breaks ties in the direction of the last field, so one
# index (company, date, number) serves both directions; a customer's companies are read one
# branch each, so that a deep page costs about what the first does.
TICKETS = ListOf(
    Ticket,
    Sorting(
        {
            "dateCreated": col(Ticket.date_created),
            "id": col(Ticket.number),
            "number": col(Ticket.number),
            "status": col(Ticket.status),
            "priority": _PRIORITY_RANK,
            "subject": col(Ticket.search_subject),
            "accountName": col(Ticket.account_name),
        },
        default=(("dateCreated", True),),
        tiebreak=col(Ticket.number),
    ),
    TICKETS_SCOPE,
    by_company=True,
)


def readable_tickets(principal: Principal) -> SelectOfScalar[Ticket]:
    """Every ticket, once the principal may read tickets (not yet scoped); 403 otherwise."""
    if not principal.allows(VIEW_TICKETS_MENU):
        raise ApiError(403)
    return select(Ticket)


def visible_tickets(principal: Principal) -> SelectOfScalar[Ticket]:
    """The tickets ``principal`` may read: their companies' (staff: every company's)."""
    return TICKETS.scope(readable_tickets(principal), principal)


@dataclass(frozen=True)
class TicketFilters:
    number: int | None
    impossible: bool  # an id that no ticket can have
    statuses: tuple[TicketStatus, ...]
    subject: str  # folded

    def apply(self, statement: S) -> S:
        if self.impossible:
            return statement.where(col(Ticket.number).is_(None))
        if self.number is not None:
            statement = statement.where(col(Ticket.number) == self.number)
        if self.statuses:
            statement = statement.where(col(Ticket.status).in_(self.statuses))
        if self.subject:
            statement = statement.where(*words(Ticket.search_subject, self.subject))
        return statement


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
        statuses=either(status, status_plain),
        subject=fold(subject or ""),
    )


TicketFiltersDep = Annotated[TicketFilters, Depends(ticket_filters)]
