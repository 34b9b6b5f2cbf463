"""Who sees which services of a company (issue 53): reading and changing a user's access.

A user is limited in a company by a ``UserAccessLimit`` row; the services they keep there are
``UserServiceGrant`` rows, chosen one by one, by site or by client-reference prefix and stored
as the services they name on the day (docs/decisions/delegated-access.md). What the limit hides
is decided by the one scoping helper (``platform/scoping.py``), never here.

An actor gives only what they see: the services named are looked for among the actor's own
(``service_condition``), so a user manager limited in a company can neither lift a limit there,
their own included, nor grant a service outside their own set.
"""

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import Depends, Query
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, delete, func, select

from portal.i18n import N_
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.lists import ListOf, S, Sorting, words
from portal.provider.platform.models import (
    Company,
    Endpoint,
    Service,
    User,
    UserAccessLimit,
    UserServiceGrant,
    fold,
    utcnow,
)
from portal.provider.platform.scoping import service_condition, services
from portal.provider.platform.security import Principal

INVALID_ACCESS = N_("The access sent is not valid.")
UNKNOWN_SERVICE = N_("No such service among yours in this company.")
NO_SERVICE_AT_SITE = N_("None of your services of this company is at this site.")
NO_SERVICE_WITH_PREFIX = N_(
    "None of your services of this company has a client reference starting so."
)
NOTHING_CHOSEN = N_("Choose at least one service, site or client reference prefix.")
CANNOT_WIDEN = N_(
    "Your own access to this company is limited: you cannot give access to all its services."
)

_SITE_A = aliased(Endpoint)
_SITE_B = aliased(Endpoint)


@dataclass(frozen=True)
class CompanyAccess:
    company: Company
    limited: bool
    service_count: int


def access_of(db: Session, user: User, company_ids: Iterable[uuid.UUID]) -> list[CompanyAccess]:
    """The user's access in each of ``company_ids`` (those of their companies the reader sees),
    by company name, in one statement whatever the number of companies."""
    wanted = sorted(set(company_ids) & user.company_ids)
    if not wanted:
        return []
    limited = (
        sa.exists()
        .where(
            col(UserAccessLimit.user_id) == user.id,
            col(UserAccessLimit.company_id) == col(Company.id),
        )
        .label("limited")
    )
    granted = (
        sa.select(func.count())
        .where(
            col(UserServiceGrant.user_id) == user.id,
            col(UserServiceGrant.company_id) == col(Company.id),
        )
        .scalar_subquery()
        .label("granted")
    )
    rows = db.execute(
        sa.select(Company, limited, granted)
        .where(col(Company.id).in_(wanted))
        .order_by(col(Company.name))
    ).all()
    return [
        CompanyAccess(company, bool(is_limited), int(count) if is_limited else 0)
        for company, is_limited, count in rows
    ]


def actor_limited_in(principal: Principal, company_id: uuid.UUID) -> bool:
    """Whether the actor is limited in ``company_id`` (unknown counts as limited)."""
    if principal.is_staff:
        return False
    limited = principal.limited_company_ids
    return limited is None or company_id in limited


def _service_id(reference: str) -> uuid.UUID | None:
    text = reference.strip().rstrip("/")
    prefix, _, last = text.rpartition("/")
    if prefix and prefix != "/api/services":
        return None
    try:
        return uuid.UUID(last)
    except ValueError:
        return None


def chosen_services(
    db: Session,
    principal: Principal,
    company_id: uuid.UUID,
    service_iris: Sequence[str],
    sites: Sequence[str],
    prefixes: Sequence[str],
) -> set[uuid.UUID]:
    """The services of ``company_id`` that the actor sees and that the choice names: one by
    one, at a site (A- or B-end, by name, case and accents aside) or by the start of a client
    reference. A choice naming none of them is a 422 with its violation."""
    rows = db.execute(
        sa.select(
            col(Service.id),
            col(Service.client_references),
            col(_SITE_A.name),
            col(_SITE_B.name),
        )
        .outerjoin(_SITE_A, col(_SITE_A.id) == col(Service.endpoint_a_id))
        .outerjoin(_SITE_B, col(_SITE_B.id) == col(Service.endpoint_b_id))
        .where(
            col(Service.company_id) == company_id,
            service_condition(principal, Service.company_id, Service.id),
        )
    ).all()
    violations: list[Violation] = []
    visible = {row[0] for row in rows}
    chosen: set[uuid.UUID] = set()
    for position, reference in enumerate(service_iris):
        service_id = _service_id(reference)
        if service_id is None or service_id not in visible:
            violations.append(Violation(f"services[{position}]", UNKNOWN_SERVICE))
        else:
            chosen.add(service_id)
    for position, site in enumerate(sites):
        folded = fold(site).strip()
        at_site = {
            row[0] for row in rows if folded and folded in (fold(row[2] or ""), fold(row[3] or ""))
        }
        if not at_site:
            violations.append(Violation(f"sites[{position}]", NO_SERVICE_AT_SITE))
        chosen |= at_site
    for position, prefix in enumerate(prefixes):
        start = prefix.strip().lower()
        starting = {
            row[0]
            for row in rows
            if start and any(str(ref).lower().startswith(start) for ref in row[1] or [])
        }
        if not starting:
            violations.append(
                Violation(f"clientReferencePrefixes[{position}]", NO_SERVICE_WITH_PREFIX)
            )
        chosen |= starting
    if not violations and not chosen:
        violations.append(Violation("services", NOTHING_CHOSEN))
    if violations:
        raise ApiError(422, INVALID_ACCESS, violations=violations)
    return chosen


def set_access(
    db: Session, user_id: uuid.UUID, company_id: uuid.UUID, granted: set[uuid.UUID] | None
) -> None:
    """Limit the user in the company to ``granted``, or lift the limit (None). The caller
    commits: the next request of the user reads the new set."""
    db.exec(
        delete(UserServiceGrant).where(
            col(UserServiceGrant.user_id) == user_id, col(UserServiceGrant.company_id) == company_id
        )
    )
    limit = db.get(UserAccessLimit, (user_id, company_id))
    if granted is None:
        if limit is not None:
            db.delete(limit)
        return
    if limit is None:
        db.add(UserAccessLimit(user_id=user_id, company_id=company_id))
    else:
        limit.changed_at = utcnow()
        db.add(limit)
    if granted:
        rows: list[dict[str, Any]] = [
            {"user_id": user_id, "service_id": service_id, "company_id": company_id}
            for service_id in sorted(granted)
        ]
        db.execute(sa.insert(UserServiceGrant), rows)


# The services granted to a user in a company, as the access picker lists them; scoped like
# the services list, so a limited reader sees only those of their own set.
GRANTED_SERVICES = ListOf(
    Service,
    Sorting(
        {"reference": col(Service.reference)},
        default=(("reference", False),),
        tiebreak=col(Service.id),
    ),
    services(Service.company_id, Service.id),
    resource="Service",
)


def granted_to(user_id: uuid.UUID, company_id: uuid.UUID) -> Any:
    """The services granted to the user in the company (not yet scoped to the reader)."""
    return (
        select(Service)
        .join(
            UserServiceGrant,
            sa.and_(
                col(UserServiceGrant.service_id) == col(Service.id),
                col(UserServiceGrant.user_id) == user_id,
            ),
        )
        .where(col(Service.company_id) == company_id)
    )


@dataclass(frozen=True)
class GrantedFilters:
    search: str  # folded

    def apply(self, statement: S) -> S:
        for condition in words(Service.search_text, self.search):
            statement = statement.where(condition)
        return statement


async def granted_filters(
    search: Annotated[
        str | None,
        Query(
            max_length=200, description="Words of the reference, client reference, label or site."
        ),
    ] = None,
) -> GrantedFilters:
    return GrantedFilters(search=fold(search or "").strip())


GrantedFiltersDep = Annotated[GrantedFilters, Depends(granted_filters)]


def limited_users(db: Session, user_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[uuid.UUID]]:
    """The companies where each of ``user_ids`` is limited: one statement for a page of users."""
    found: dict[uuid.UUID, list[uuid.UUID]] = {}
    if not user_ids:
        return found
    rows = db.exec(
        select(UserAccessLimit.user_id, UserAccessLimit.company_id).where(
            col(UserAccessLimit.user_id).in_(user_ids)
        )
    )
    for user_id, company_id in rows:
        found.setdefault(user_id, []).append(company_id)
    return found
