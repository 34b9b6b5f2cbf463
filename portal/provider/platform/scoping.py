"""What a principal may read: the one place where queries are scoped to companies.

Customers see the rows of their companies (main and auxiliary); staff see every company's. A row
outside the scope is simply not found, so another company's id answers 404, never 403.
"""

from typing import Any, TypeVar

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
    of a customer (staff: one statement over every company), for ``hydra.paginate_branches``
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
