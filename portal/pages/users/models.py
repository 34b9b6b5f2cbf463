"""A user as the Users screens show it: plain values, ready for the browser."""

from pydantic import BaseModel, Field

from portal import routes
from portal.client import User

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

    @classmethod
    def of(cls, user: User) -> "UserRow":
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
        )
