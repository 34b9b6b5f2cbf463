"""What a principal may read: the one place where queries are scoped to companies.

Customers see the rows of their companies (main and auxiliary); staff see every company's. A row
outside the scope is simply not found, so another company's id answers 404, never 403.

A user may be limited, in some of their companies, to the services granted to them (issue 53,
docs/decisions/delegated-access.md): the rows of or about a service (its documents, sensors,
maintenance links, tickets) are then scoped by a join on ``user_service_grants``' key, and the
company-wide rows (invoices, users, companies) stay company-wide. ``services``, ``tickets`` and
``through_visible_services`` say it once for every statement.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import and_, false, func, true
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, or_, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.db import planned_once
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import (
    Service,
    Ticket,
    User,
    UserAccessLimit,
    UserAuxiliaryCompany,
    UserServiceGrant,
)
from portal.provider.platform.security import Principal

T = TypeVar("T")


def company_condition(principal: Principal, company_column: Any) -> ColumnElement[bool]:
    """True for rows whose ``company_column`` is one of the principal's companies."""
    if principal.is_staff:
        return true()
    return col(company_column).in_(principal.company_ids)


# What, of a company where the principal is limited, they still see: a condition on the row.
Within = Callable[[Principal], ColumnElement[bool]]


def granted_services(principal: Principal) -> SelectOfScalar[uuid.UUID]:
    """The ids of the services granted to the principal: a semi-join on the grants' key."""
    return select(UserServiceGrant.service_id).where(UserServiceGrant.user_id == principal.user.id)


def service_within(column: Any) -> Within:
    """Rows whose service (``column``: its id) is granted to the principal."""

    def within(principal: Principal) -> ColumnElement[bool]:
        return col(column).in_(granted_services(principal))

    return within


def ticket_within(principal: Principal) -> ColumnElement[bool]:
    """Tickets about a granted service (by the ticket's ``service_id``), or that the principal
    opened."""
    granted = service_within(Ticket.service_id)(principal)
    return or_(granted, col(Ticket.requester_email) == principal.user.email)


def limited_condition(
    principal: Principal, company_column: Any, within: Within
) -> ColumnElement[bool]:
    """True for rows of the principal's companies that they see: every row of a company where
    they are not limited, the rows ``within`` their grants in one where they are."""
    scoped = company_condition(principal, company_column)
    if principal.is_staff:
        return scoped
    limited = principal.limited_company_ids
    if limited is None:
        # Not read with the principal: the statement reads the user's limits itself.
        limits = select(UserAccessLimit.company_id).where(
            UserAccessLimit.user_id == principal.user.id
        )
        return and_(scoped, or_(col(company_column).not_in(limits), within(principal)))
    if not limited:
        return scoped
    free = principal.company_ids - limited
    if not free:
        return and_(scoped, within(principal))
    return and_(scoped, or_(col(company_column).in_(free), within(principal)))


def visible_service_count(principal: Principal) -> SelectOfScalar[int] | None:
    """The number of services the principal may read, for a list of them that nothing else
    narrows: in a company where they are limited, their grants there (each names a service of
    that company, ``accounts.access``), not the company's services joined with them. None where
    the list's own count is as cheap (staff, a user limited nowhere) or the limits were not read
    with the principal."""
    limited = principal.limited_company_ids
    if principal.is_staff or not limited:
        return None
    granted = (
        select(func.count())
        .select_from(UserServiceGrant)
        .where(
            UserServiceGrant.user_id == principal.user.id,
            col(UserServiceGrant.company_id).in_(limited),
        )
        .scalar_subquery()
    )
    free = principal.company_ids - limited
    if not free:
        return select(granted)
    whole = (
        select(func.count()).select_from(Service).where(col(Service.company_id).in_(free))
    ).scalar_subquery()
    return select(granted + whole)


def service_condition(
    principal: Principal, company_column: Any, service_column: Any
) -> ColumnElement[bool]:
    """``limited_condition`` for rows of a service: ``service_column`` is the service's id."""
    return limited_condition(principal, company_column, service_within(service_column))


class Scope(Protocol):
    """How a list is kept to what the principal may read (``ListOf``'s ``scope``): ``statement``
    narrowed to it."""

    def __call__(
        self, statement: SelectOfScalar[T], principal: Principal, /
    ) -> SelectOfScalar[T]: ...


# Not compared: a column's ``==`` is SQL.
@dataclass(frozen=True, eq=False)
class CompanyScope:
    """Rows whose ``column`` names one of the principal's companies: the scope of nearly every
    list. ``branches`` splits a statement by company, for the lists read company by company.
    With ``within``, a limited user's rows of a company where they are limited are those it
    keeps (``services``, ``tickets``)."""

    column: Any
    within: Within | None = None

    def __call__(self, statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
        if self.within is None:
            return scope_to_companies(statement, principal, self.column)
        return statement.where(limited_condition(principal, self.column, self.within))

    def branches(
        self, statement: SelectOfScalar[T], principal: Principal
    ) -> list[SelectOfScalar[T]]:
        within = self.within
        limited = principal.limited_company_ids
        if within is None or principal.is_staff or not principal.company_ids or limited == set():
            return company_branches(statement, principal, self.column)
        if limited is None:
            condition = limited_condition(principal, self.column, within)
            return company_branches(statement.where(condition), principal, self.column)
        # One branch per company, as for everyone; in a company where the user is limited, the
        # rows within their grants.
        return [
            statement.where(col(self.column) == company, within(principal))
            if company in limited
            else statement.where(col(self.column) == company)
            for company in sorted(principal.company_ids)
        ]


def companies(column: Any) -> CompanyScope:
    """The scope of rows that belong to the whole company through ``column``: ``companies(
    Invoice.company_id)``. Rows of or about a service take ``services`` or ``tickets``."""
    return CompanyScope(column)


def services(company_column: Any, service_column: Any) -> CompanyScope:
    """The scope of a service's rows: ``services(Service.company_id, Service.id)``,
    ``services(Sensor.company_id, Sensor.service_id)``: a limited user's granted ones."""
    return CompanyScope(company_column, service_within(service_column))


# Tickets: a limited user's are those about their services and those they opened.
TICKETS_SCOPE = CompanyScope(Ticket.company_id, ticket_within)


def ticket_condition(principal: Principal) -> ColumnElement[bool]:
    """True for the tickets the principal sees (``TICKETS_SCOPE``), for counts and joins."""
    return limited_condition(principal, Ticket.company_id, ticket_within)


def staff_only(statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
    """Every row, for the lists of an administrator's own routes (``AdminPrincipal``: the audit
    log, API tokens), which belong to no company; a customer never gets here."""
    if not principal.is_staff:
        raise ApiError(403)
    return statement


def scope_to_companies(
    statement: SelectOfScalar[T], principal: Principal, company_column: Any
) -> SelectOfScalar[T]:
    return statement.where(company_condition(principal, company_column))


def through_visible_services(
    statement: SelectOfScalar[T], principal: Principal
) -> SelectOfScalar[T]:
    """``statement``, which selects from ``services``, kept to the services ``principal`` may
    read: documents, terminations, tickets and maintenances are reached through their service."""
    return statement.where(service_condition(principal, Service.company_id, Service.id))


def company_branches(
    statement: SelectOfScalar[T], principal: Principal, company_column: Any
) -> list[SelectOfScalar[T]]:
    """``statement`` scoped like ``scope_to_companies``, split into one statement per company
    of a customer (staff: one statement over every company), for ``lists.paginate_branches``
    to read each in index order and merge."""
    if principal.is_staff:
        return [statement]
    if not principal.company_ids:
        return [statement.where(false())]
    return [
        statement.where(col(company_column) == company) for company in sorted(principal.company_ids)
    ]


def visible_users(statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
    """Users whose main or auxiliary company is one of the principal's."""
    auxiliary_members = select(UserAuxiliaryCompany.user_id).where(
        company_condition(principal, UserAuxiliaryCompany.company_id)
    )
    return statement.where(
        or_(
            company_condition(principal, User.company_id),
            col(User.id).in_(auxiliary_members),
        )
    )


def one_or_404(db: Session, statement: SelectOfScalar[T]) -> T:
    """The row of ``statement``, a row by its key (or another unique value); else 404."""
    row = db.exec(planned_once(statement)).first()
    if row is None:
        raise ApiError(404)
    return row
