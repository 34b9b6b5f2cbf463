"""What the accounts' lists read, each declared once with its filters
(``portal.provider.platform.lists``)."""

import uuid
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Query
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.db import preload
from portal.provider.platform.lists import ListOf, S, Sorting
from portal.provider.platform.models import User, fold
from portal.provider.platform.scoping import visible_users

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
