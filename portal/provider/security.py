"""Who is calling: the principal of a request and the dependencies routes declare.

``CurrentPrincipal`` is what nearly every ``/api`` route takes: a signed-in user who has accepted
the terms (else 401, or 403 with ``code: "required_terms"``). ``PrincipalBeforeTerms`` lets in a
user who has not accepted them yet, for the two routes that must work before (reading oneself and
accepting); ``OptionalPrincipal`` is for routes open to everyone.
"""

import uuid
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from portal.i18n import N_
from portal.permissions import Rule, can, is_staff, rules_for
from portal.provider.db import SessionDep
from portal.provider.errors import REQUIRED_TERMS, ApiError
from portal.provider.models import User
from portal.provider.sessions import current_session

TERMS_MESSAGE = N_("Please accept the terms and conditions of use.")


@dataclass(frozen=True)
class Principal:
    """The acting user, the staff member impersonating them if any, and what they may do."""

    user: User
    impersonator: User | None
    session_id: str
    company_ids: frozenset[uuid.UUID]
    rules: frozenset[Rule]

    @property
    def is_staff(self) -> bool:
        """Staff read every company's data; customers only their companies'."""
        return is_staff(self.user.roles)

    def can(self, action: str, subject: str) -> bool:
        return can(self.rules, action, subject)


def optional_principal(request: Request, db: SessionDep) -> Principal | None:
    session = current_session(db, request)
    if session is None:
        return None
    user = db.get(User, session.user_id)
    if user is None or not user.is_active:
        db.delete(session)
        db.commit()
        return None
    impersonator = db.get(User, session.impersonator_id) if session.impersonator_id else None
    return Principal(
        user=user,
        impersonator=impersonator,
        session_id=session.id,
        company_ids=frozenset(user.company_ids),
        rules=rules_for(user.roles),
    )


OptionalPrincipal = Annotated[Principal | None, Depends(optional_principal)]


def principal_before_terms(principal: OptionalPrincipal) -> Principal:
    if principal is None:
        raise ApiError(401)
    return principal


PrincipalBeforeTerms = Annotated[Principal, Depends(principal_before_terms)]


def require_accepted_terms(principal: Principal) -> None:
    if not principal.user.has_accepted_terms:
        raise ApiError(403, TERMS_MESSAGE, code=REQUIRED_TERMS)


def current_principal(principal: PrincipalBeforeTerms) -> Principal:
    require_accepted_terms(principal)
    return principal


CurrentPrincipal = Annotated[Principal, Depends(current_principal)]
