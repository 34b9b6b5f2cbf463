"""A user as the Users screens show it: plain values, ready for the browser."""

from collections.abc import Iterable

from pydantic import BaseModel, Field

from portal import routes
from portal.client import User
from portal.permissions import may_impersonate

# The provider embeds the main and the auxiliary companies on ``includes[]=company`` (spec 7).
USER_INCLUDES = ("company",)


class UserRow(BaseModel):
    id: str = ""
    path: str = ""
    full_name: str = ""
    email: str = ""
    phone_number: str = ""
    job: str = ""
    roles: list[str] = Field(default_factory=list)
    company: str = ""
    auxiliary_companies: list[str] = Field(default_factory=list)
    # How the row relates to whoever looks at it, for the actions column (spec 6).
    is_self: bool = False
    impersonable: bool = False
    # Sees only some services of a company (issue 53): the users list shows it.
    limited: bool = False

    @classmethod
    def of(cls, user: User, viewer_id: str = "", viewer_roles: Iterable[str] = ()) -> "UserRow":
        is_self = bool(viewer_id) and user.id == viewer_id
        return cls(
            id=user.id,
            path=routes.user_path(user.id),
            full_name=user.full_name,
            email=user.email,
            phone_number=user.phone_number or "",
            job=user.job or "",
            roles=list(user.roles),
            company=(user.company.name or "") if user.company else "",
            auxiliary_companies=[c.name for c in user.auxiliary_companies if c.name],
            is_self=is_self,
            impersonable=not is_self and may_impersonate(viewer_roles, user.roles),
            limited=bool(user.limited_companies),
        )
