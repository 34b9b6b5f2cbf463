"""What the accounts' lists read, each declared once with its filters
(``portal.provider.platform.lists``)."""

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Annotated, TypeVar

import sqlalchemy as sa
from fastapi import Depends, Query
from sqlmodel import col, func, or_, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.db import preload
from portal.provider.platform.hydra import IsoDate
from portal.provider.platform.lists import ListOf, S, Sorting, either
from portal.provider.platform.models import ApiToken, ApiTokenKind, AuditLog, Company, User, fold
from portal.provider.platform.scoping import companies, staff_only, visible_users
from portal.provider.platform.security import Principal
from portal.settings import get_settings

T = TypeVar("T")

USERS = ListOf(
    User,
    Sorting(
        {
            "lastname": col(User.lastname),
            "firstname": col(User.firstname),
            "email": col(User.email),
        },
        then=((col(User.lastname), False), (col(User.firstname), False), (col(User.id), False)),
    ),
    visible_users,
)


def users_with_companies() -> SelectOfScalar[User]:
    """Users with the companies their JSON names, joined into the statement that reads them."""
    return select(User).options(*preload(User.company, User.auxiliary_companies))


@dataclass(frozen=True)
class UserFilters:
    name: str  # folded
    email: str  # lower case
    company_ids: tuple[uuid.UUID, ...]

    def apply(self, statement: S) -> S:
        if self.name:
            statement = statement.where(col(User.search_name).contains(self.name, autoescape=True))
        if self.email:
            statement = statement.where(col(User.email).contains(self.email, autoescape=True))
        if self.company_ids:
            statement = statement.where(col(User.company_id).in_(self.company_ids))
        return statement


async def user_filters(
    name: Annotated[
        str | None, Query(description="Part of the first name, last name or both.")
    ] = None,
    email: Annotated[str | None, Query(description="Part of the e-mail.")] = None,
    company_uuid: Annotated[
        list[uuid.UUID] | None, Query(alias="company.uuid", description="Main company ids.")
    ] = None,
) -> UserFilters:
    return UserFilters(
        name=fold(name or ""),
        email=(email or "").strip().lower(),
        company_ids=tuple(company_uuid or ()),
    )


UserFiltersDep = Annotated[UserFilters, Depends(user_filters)]


COMPANIES = ListOf(
    Company,
    Sorting(
        {"name": col(Company.name)}, then=((col(Company.name), False), (col(Company.id), False))
    ),
    companies(Company.id),
)


@dataclass(frozen=True)
class CompanyFilters:
    name: str  # lower case
    ids: tuple[uuid.UUID, ...]

    def apply(self, statement: S) -> S:
        if self.name:
            statement = statement.where(
                func.lower(Company.name).contains(self.name, autoescape=True)
            )
        if self.ids:
            statement = statement.where(col(Company.id).in_(self.ids))
        return statement


async def company_filters(
    name: Annotated[str | None, Query(description="Part of the name, any case.")] = None,
    uuids: Annotated[list[uuid.UUID] | None, Query(alias="uuid[]", description="Ids.")] = None,
    uuid_plain: Annotated[
        list[uuid.UUID] | None, Query(alias="uuid", include_in_schema=False)
    ] = None,
) -> CompanyFilters:
    return CompanyFilters(name=(name or "").strip().lower(), ids=either(uuids, uuid_plain))


CompanyFiltersDep = Annotated[CompanyFilters, Depends(company_filters)]


def without_staff_companies(statement: S) -> S:
    """Spec 6: the company search hides the provider's own companies from everyone but
    administrators (``VIEW_STAFF_COMPANIES``)."""
    staff = get_settings().staff_company_name.strip().lower()
    lowered = func.lower(func.trim(Company.name))
    return statement.where(
        ~or_(lowered.startswith(staff, autoescape=True), lowered.endswith(staff, autoescape=True))
    )


AUDIT_LOG = ListOf(
    AuditLog,
    Sorting(then=((col(AuditLog.at), True), (col(AuditLog.id), False))),
    staff_only,
    resource="AuditEntry",
)
# The e-mails every entry may name, kept in ``detail`` so the trail outlives deleted users.
AUDITED_PEOPLE = ("actor_email", "subject_email", "impersonator_email", "username")


@dataclass(frozen=True)
class AuditFilters:
    action: str
    email: str  # lower case
    after: dt.date | None
    before: dt.date | None

    def apply(self, statement: S) -> S:
        if self.action:
            statement = statement.where(col(AuditLog.action) == self.action)
        if self.email:
            detail = col(AuditLog.detail)
            statement = statement.where(
                sa.or_(
                    *(
                        sa.func.lower(detail[name].as_string()).contains(
                            self.email, autoescape=True
                        )
                        for name in AUDITED_PEOPLE
                    )
                )
            )
        if self.after is not None:
            statement = statement.where(col(AuditLog.at) >= _midnight(self.after))
        if self.before is not None:
            next_day = _midnight(self.before + dt.timedelta(days=1))
            statement = statement.where(col(AuditLog.at) < next_day)
        return statement


async def audit_filters(
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
) -> AuditFilters:
    return AuditFilters(
        action=action or "", email=(email or "").strip().lower(), after=after, before=before
    )


AuditFiltersDep = Annotated[AuditFilters, Depends(audit_filters)]


def _midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


def own_tokens(statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
    """The caller's own personal API tokens: nobody lists another user's, staff included."""
    return statement.where(
        col(ApiToken.user_id) == principal.user.id, col(ApiToken.kind) == ApiTokenKind.PERSONAL
    )


# Newest first.
PERSONAL_TOKENS = ListOf(
    ApiToken,
    Sorting(then=((col(ApiToken.created_at), True), (col(ApiToken.id), False))),
    own_tokens,
    resource="PersonalApiToken",
)
