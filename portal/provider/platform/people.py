"""Who a request acts as, or on: the few values of a user that the checks and the audit log
read, whether they come as a ``User`` entity or as plain values read with the session."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from portal.provider.platform.models import User


class Someone(Protocol):
    """A user as the permission checks and the audit log see them."""

    @property
    def id(self) -> uuid.UUID: ...

    @property
    def email(self) -> str: ...

    @property
    def roles(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class Person:
    """A user read as values, not as an entity: what every request's principal holds. A route
    that changes the user loads the entity (``db.get_one(User, principal.user.id)``)."""

    id: uuid.UUID
    email: str
    roles: tuple[str, ...]
    has_accepted_terms: bool

    @classmethod
    def of(cls, user: User) -> "Person":
        return cls(user.id, user.email, tuple(user.roles), user.has_accepted_terms)
