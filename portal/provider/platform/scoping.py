"""What a principal may read: the one place where queries are scoped to companies.

Customers see the rows of their companies (main and auxiliary); staff see every company's. A row
outside the scope is simply not found, so another company's id answers 404, never 403.
"""

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import false, true
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, or_, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.db import planned_once
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import Service, User, UserAuxiliaryCompany
from portal.provider.platform.security import Principal

T = TypeVar("T")


def company_condition(principal: Principal, company_column: Any) -> ColumnElement[bool]:
    """True for rows whose ``company_column`` is one of the principal's companies."""
    if principal.is_staff:
        return true()
    return col(company_column).in_(principal.company_ids)


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
    list. ``branches`` splits a statement by company, for the lists read company by company."""

    column: Any

    def __call__(self, statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
        return scope_to_companies(statement, principal, self.column)

    def branches(
        self, statement: SelectOfScalar[T], principal: Principal
    ) -> list[SelectOfScalar[T]]:
        return company_branches(statement, principal, self.column)


def companies(column: Any) -> CompanyScope:
    """The scope of rows that belong to a company through ``column``: ``companies(Invoice.
    company_id)``; of rows reached through their service, ``companies(Service.company_id)``."""
    return CompanyScope(column)


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
    return scope_to_companies(statement, principal, Service.company_id)


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
