"""Maintenance notices (issue 50): queued in the transaction of the change they announce, one
per recipient and company, and written from the maintenance's state when they are due.

``announce`` runs where a maintenance changes (the integration API's batch): for each company
whose services the change touches, every active user of it who takes maintenance notices and
each of its confirmed extra addresses get a ``maintenance_notices`` row due
``MAINTENANCE_NOTICE_DELAY_SECONDS`` later, unless one is already waiting, which then tells this
change too. ``send_due_notices`` (the outbox's loop, every few seconds) takes the due rows, writes
each notice as it then stands in the recipient's language, and hands it to the outbox in the
same transaction (docs/decisions/maintenance-notices.md).
"""

import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from sqlmodel import col, select

from portal.provider.platform.embeds import type_label
from portal.provider.platform.mail.notice_message import (
    Content,
    ImpactedService,
    Recipient,
    Rendered,
    compose,
    render,
)
from portal.provider.platform.mail.outbox import queue
from portal.provider.platform.maintnote import account
from portal.provider.platform.models import (
    Company,
    Maintenance,
    MaintenanceNotice,
    MaintenanceNotices,
    MaintenanceService,
    MaintenanceStatus,
    NoticeAddress,
    NoticeEvent,
    Service,
    ServiceType,
    User,
    UserAccessLimit,
    UserAuxiliaryCompany,
    UserServiceGrant,
    utcnow,
)
from portal.provider.platform.notice_links import unsubscribe_link
from portal.settings import get_settings

# Due notices written per transaction.
_BATCH = 500


def _takes_notices() -> list[sa.ColumnElement[bool]]:
    """An active user with a role (a portal user, not a stored contact) who takes notices."""
    return [
        col(User.is_active).is_(True),
        col(User.maintenance_notices) == MaintenanceNotices.ALL,
        sa.func.json_array_length(col(User.roles)) > 0,
    ]


def _recipients(db: Session, company_ids: Sequence[uuid.UUID]) -> set[tuple[Any, ...]]:
    """(company, user, address) of everyone a notice to these companies goes to."""
    main = select(User.company_id, User.id).where(
        col(User.company_id).in_(company_ids), *_takes_notices()
    )
    other = (
        select(UserAuxiliaryCompany.company_id, User.id)
        .join(User, col(User.id) == col(UserAuxiliaryCompany.user_id))
        .where(col(UserAuxiliaryCompany.company_id).in_(company_ids), *_takes_notices())
    )
    addresses = select(NoticeAddress.company_id, NoticeAddress.id).where(
        col(NoticeAddress.company_id).in_(company_ids), col(NoticeAddress.confirmed_at).isnot(None)
    )
    found: set[tuple[Any, ...]] = {
        (company, user, None) for company, user in db.execute(main.union(other))
    }
    found |= {(company, None, address) for company, address in db.execute(addresses)}
    return found


def announce(
    db: Session,
    maintenance_id: uuid.UUID,
    event: NoticeEvent,
    company_ids: Iterable[uuid.UUID],
    now: datetime | None = None,
) -> int:
    """Queue a notice of ``event`` to the recipients of each company, in ``db``'s transaction,
    but to those who have one waiting for this maintenance; returns how many were queued."""
    companies = list(set(company_ids))
    if not companies:
        return 0
    waiting = {
        (row.company_id, row.user_id, row.address_id)
        for row in db.execute(
            select(
                MaintenanceNotice.company_id,
                MaintenanceNotice.user_id,
                MaintenanceNotice.address_id,
            ).where(
                col(MaintenanceNotice.maintenance_id) == maintenance_id,
                col(MaintenanceNotice.company_id).in_(companies),
            )
        )
    }
    moment = now or utcnow()
    due = moment + timedelta(seconds=get_settings().maintenance_notice_delay_seconds)
    rows = [
        {
            "id": uuid.uuid4(),
            "maintenance_id": maintenance_id,
            "company_id": company,
            "user_id": user,
            "address_id": address,
            "event": event,
            "due_at": due,
            "created_at": moment,
        }
        for company, user, address in _recipients(db, companies) - waiting
    ]
    if rows:
        db.execute(sa.insert(MaintenanceNotice), rows)
    return len(rows)


@dataclass(frozen=True)
class _Claimed:
    maintenance_id: uuid.UUID
    company_id: uuid.UUID
    user_id: uuid.UUID | None
    address_id: uuid.UUID | None
    event: NoticeEvent


def send_due_notices(engine: Engine, now: datetime | None = None) -> int:
    """Write every due notice into the outbox; returns how many were queued there."""
    now = now or utcnow()
    queued = 0
    while True:
        with Session(engine) as db:
            claimed = _claim(db, now)
            if not claimed:
                return queued
            queued += _write(db, claimed)
            db.commit()


def _claim(db: Session, now: datetime) -> list[_Claimed]:
    """Take up to a batch of due notices out of the table, in ``db``'s transaction: a worker
    that deletes a row is the one that writes it (another's DELETE waits, then finds nothing)."""
    due = (
        select(MaintenanceNotice.id)
        .where(col(MaintenanceNotice.due_at) <= now)
        .order_by(col(MaintenanceNotice.due_at))
        .limit(_BATCH)
    )
    ids = list(db.scalars(due))
    if not ids:
        return []
    taken = db.execute(
        sa.delete(MaintenanceNotice)
        .where(col(MaintenanceNotice.id).in_(ids))
        .returning(
            col(MaintenanceNotice.maintenance_id),
            col(MaintenanceNotice.company_id),
            col(MaintenanceNotice.user_id),
            col(MaintenanceNotice.address_id),
            col(MaintenanceNotice.event),
        )
    )
    return [_Claimed(*row) for row in taken]


def _write(db: Session, claimed: list[_Claimed]) -> int:
    maintenance_ids = {notice.maintenance_id for notice in claimed}
    company_ids = {notice.company_id for notice in claimed}
    maintenances = {
        row.id: row
        for row in db.scalars(select(Maintenance).where(col(Maintenance.id).in_(maintenance_ids)))
    }
    companies = {
        row.id: row for row in db.scalars(select(Company).where(col(Company.id).in_(company_ids)))
    }
    services = _impacted(db, maintenance_ids, company_ids)
    users = _users(db, {n.user_id for n in claimed if n.user_id is not None})
    kept = _kept(db, {n.user_id for n in claimed if n.user_id is not None}, maintenance_ids)
    addresses = {
        row.id: row
        for row in db.scalars(
            select(NoticeAddress).where(
                col(NoticeAddress.id).in_({n.address_id for n in claimed if n.address_id})
            )
        )
    }
    written = 0
    rendered: dict[tuple[Any, ...], Rendered] = {}
    for notice in claimed:
        maintenance = maintenances.get(notice.maintenance_id)
        company = companies.get(notice.company_id)
        if maintenance is None or company is None:
            continue
        recipient = _recipient(notice, users, addresses)
        if recipient is None:
            continue
        impacted = services.get((maintenance.id, company.id), [])
        limited = kept.get((notice.user_id, company.id)) if notice.user_id else None
        if limited is not None:
            # A user limited to some services (issue 53) hears of theirs only, if any.
            impacted = [service for service in impacted if service[0] in limited]
            if not impacted:
                continue
        event = _event_at_delivery(notice.event, maintenance.status, bool(impacted))
        if event is None:
            continue
        key = (
            maintenance.id,
            company.id,
            event,
            recipient.language,
            recipient.time_zone,
            tuple(service[0] for service in impacted),
        )
        if key not in rendered:
            rendered[key] = render(
                _content(event, maintenance, company, impacted, recipient.language),
                recipient.language,
                recipient.time_zone,
            )
        queue(db, compose(rendered[key], recipient))
        written += 1
    return written


def _content(
    event: NoticeEvent,
    maintenance: Maintenance,
    company: Company,
    impacted: list[tuple[str, ServiceType, list[str]]],
    language: str,
) -> Content:
    return Content(
        event=event,
        company=company.name,
        account=account(company.reference, company.id),
        maintenance_id=maintenance.id,
        reference=maintenance.reference,
        name=maintenance.name,
        type=maintenance.type,
        status=maintenance.status,
        date_start=maintenance.date_start,
        date_end=maintenance.date_end,
        sequence=maintenance.sequence,
        changed_at=maintenance.updated_at,
        classification=maintenance.classification,
        services=tuple(
            ImpactedService(ref, type_label(kind, language), tuple(client))
            for ref, kind, client in impacted
        ),
    )


def _event_at_delivery(
    queued: NoticeEvent, status: MaintenanceStatus, impacts_company: bool
) -> NoticeEvent | None:
    """What the notice tells, from the maintenance as it stands; None when there is nothing
    to tell (a maintenance cancelled before its first notice left)."""
    if not impacts_company or status is MaintenanceStatus.CANCELLED:
        return None if queued is NoticeEvent.SCHEDULED else NoticeEvent.CANCELLED
    if status is MaintenanceStatus.ONGOING:
        return NoticeEvent.STARTED
    if status is MaintenanceStatus.COMPLETED:
        return NoticeEvent.COMPLETED
    if queued is NoticeEvent.SCHEDULED:
        return NoticeEvent.SCHEDULED
    return NoticeEvent.CHANGED


def _kept(
    db: Session, user_ids: set[uuid.UUID], maintenance_ids: set[uuid.UUID]
) -> dict[tuple[uuid.UUID, uuid.UUID], set[str]]:
    """For each (user, company) where the user is limited to some services: the references of
    the services of these maintenances they keep (empty when none)."""
    if not user_ids:
        return {}
    kept: dict[tuple[uuid.UUID, uuid.UUID], set[str]] = {
        (user, company): set()
        for user, company in db.execute(
            select(UserAccessLimit.user_id, UserAccessLimit.company_id).where(
                col(UserAccessLimit.user_id).in_(user_ids)
            )
        )
    }
    if not kept:
        return kept
    granted = (
        sa.select(
            col(UserServiceGrant.user_id), col(UserServiceGrant.company_id), col(Service.reference)
        )
        .join(Service, col(Service.id) == col(UserServiceGrant.service_id))
        .join(MaintenanceService, col(MaintenanceService.service_id) == col(Service.id))
        .where(
            col(UserServiceGrant.user_id).in_({user for user, _ in kept}),
            col(MaintenanceService.maintenance_id).in_(maintenance_ids),
        )
    )
    for user, company, reference in db.execute(granted):
        if (user, company) in kept:
            kept[(user, company)].add(reference)
    return kept


def _impacted(
    db: Session, maintenance_ids: set[uuid.UUID], company_ids: set[uuid.UUID]
) -> dict[tuple[uuid.UUID, uuid.UUID], list[tuple[str, ServiceType, list[str]]]]:
    """Each (maintenance, company)'s impacted services: reference, type, client references."""
    found: dict[tuple[uuid.UUID, uuid.UUID], list[tuple[str, ServiceType, list[str]]]]
    found = defaultdict(list)
    statement = (
        sa.select(
            col(MaintenanceService.maintenance_id),
            col(MaintenanceService.company_id),
            col(Service.reference),
            ServiceType,
            col(Service.client_references),
        )
        .join(Service, col(Service.id) == col(MaintenanceService.service_id))
        .join(ServiceType, col(ServiceType.id) == col(Service.type_id))
        .where(
            col(MaintenanceService.maintenance_id).in_(maintenance_ids),
            col(MaintenanceService.company_id).in_(company_ids),
        )
        .order_by(col(Service.reference))
    )
    for maintenance_id, company_id, reference, kind, client in db.execute(statement):
        found[(maintenance_id, company_id)].append((reference, kind, client or []))
    return found


@dataclass(frozen=True)
class _User:
    recipient: Recipient
    companies: frozenset[uuid.UUID]
    takes_notices: bool


def _users(db: Session, user_ids: set[uuid.UUID]) -> dict[uuid.UUID, _User]:
    if not user_ids:
        return {}
    other: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
    links = select(UserAuxiliaryCompany.user_id, UserAuxiliaryCompany.company_id).where(
        col(UserAuxiliaryCompany.user_id).in_(user_ids)
    )
    for user_id, company_id in db.execute(links):
        other[user_id].add(company_id)
    found = {}
    takes = sa.and_(*_takes_notices())
    rows = select(User, takes).where(col(User.id).in_(user_ids))
    for user, takes_notices in db.execute(rows):
        found[user.id] = _User(
            Recipient(
                user.email,
                user.full_name,
                user.language,
                user.time_zone,
                unsubscribe_link("user", user.id),
                signs_in=True,
            ),
            frozenset({user.company_id, *other[user.id]}),
            bool(takes_notices),
        )
    return found


def _recipient(
    notice: _Claimed, users: dict[uuid.UUID, _User], addresses: dict[uuid.UUID, NoticeAddress]
) -> Recipient | None:
    """Whom the notice goes to, if they still take it and still belong to its company."""
    if notice.user_id is not None:
        user = users.get(notice.user_id)
        if user is None or not user.takes_notices or notice.company_id not in user.companies:
            return None
        return user.recipient
    address = addresses.get(notice.address_id) if notice.address_id else None
    if address is None or address.confirmed_at is None or address.company_id != notice.company_id:
        return None
    return Recipient(
        address.email,
        "",
        address.language,
        address.time_zone,
        unsubscribe_link("address", address.id),
    )
