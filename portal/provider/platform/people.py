"""Who a request acts as, or on: the few values of a user that the checks and the audit log
read, whether they come as a ``User`` entity or as plain values read with the session."""

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from portal.permissions import honoured_roles
from portal.provider.platform.models import User
from portal.settings import get_settings


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
    def acting(
        cls, id: uuid.UUID, email: str, roles: Sequence[str], has_accepted_terms: bool
    ) -> "Person":
        """The user as they act: with the roles they are honoured in (a staff role stored on an
        e-mail outside the staff domain gives nothing)."""
        domain = get_settings().staff_mail_domain
        return cls(id, email, honoured_roles(roles, email, domain), has_accepted_terms)

    @classmethod
    def of(cls, user: User) -> "Person":
        return cls.acting(user.id, user.email, user.roles, user.has_accepted_terms)
