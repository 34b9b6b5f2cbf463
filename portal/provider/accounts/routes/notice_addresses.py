"""A company's extra addresses for maintenance notices (issue 50, item 4): a NOC mailbox that
is no portal user. The company's user managers (and the provider's) list, add and remove them;
an address added gets a confirmation link, and nothing else goes there until it is followed
(``POST /notices/confirm/{token}``, public but for its signed token)."""

import uuid
from datetime import datetime

from fastapi import Response
from pydantic import Field
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.permissions import MANAGE_USERS
from portal.provider.accounts.routes.notification_preferences import Language, is_time_zone
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.mail.messages import NOTICE_ADDRESS, compose
from portal.provider.platform.mail.outbox import queue
from portal.provider.platform.models import Company, NoticeAddress, utcnow
from portal.provider.platform.notice_links import confirmation_link, verified
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, scope_to_companies
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.validation import INVALID_EMAIL, is_email

router = ProviderRouter(tags=["notifications"])

ADDRESSES = "/api/companies/{company_id}/notice_addresses"
INVALID_ADDRESS = N_("The address is not valid: nothing was added.")
ALREADY_THERE = N_("This address already receives the company's notices, or awaits confirmation.")
UNKNOWN_TIME_ZONE = N_("This is not a time zone of the IANA database, such as Europe/Paris.")
# A company keeps a handful of NOC mailboxes, not a mailing list.
MAX_ADDRESSES = 20
TOO_MANY = N_("A company may have at most {max} extra addresses.")


class NoticeAddressIn(ApiModel):
    email: str = Field(max_length=254)
    language: Language = "en"
    time_zone: str = Field(default="UTC", max_length=64)


class NoticeAddressOut(ApiModel):
    id: uuid.UUID
    email: str
    language: str
    time_zone: str
    created_at: datetime
    confirmed_at: datetime | None = Field(
        description="Null until the link sent to the address is followed: nothing goes there."
    )


def _company(db: Session, principal: Principal, company_id: uuid.UUID) -> Company:
    """The company, if the principal sees it (else 404) and manages its users (else 403)."""
    company = one_or_404(
        db,
        scope_to_companies(select(Company).where(Company.id == company_id), principal, Company.id),
    )
    if not principal.allows(MANAGE_USERS):
        raise ApiError(403)
    return company


def _out(address: NoticeAddress) -> NoticeAddressOut:
    return NoticeAddressOut.model_validate(address, from_attributes=True)


@router.get(ADDRESSES, response_model=list[NoticeAddressOut])
def list_addresses(
    company_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> list[NoticeAddressOut]:
    _company(db, principal, company_id)
    found = db.exec(
        select(NoticeAddress)
        .where(NoticeAddress.company_id == company_id)
        .order_by(col(NoticeAddress.email))
    )
    return [_out(address) for address in found]


@router.post(ADDRESSES, response_model=NoticeAddressOut, status_code=201)
def add_address(
    company_id: uuid.UUID, body: NoticeAddressIn, db: SessionDep, principal: CurrentPrincipal
) -> NoticeAddressOut:
    _company(db, principal, company_id)
    email = body.email.strip().lower()
    violations = []
    if not is_email(email):
        violations.append(Violation("email", INVALID_EMAIL))
    if not is_time_zone(body.time_zone):
        violations.append(Violation("timeZone", UNKNOWN_TIME_ZONE))
    existing = db.exec(select(NoticeAddress).where(NoticeAddress.company_id == company_id)).all()
    if any(address.email == email for address in existing):
        violations.append(Violation("email", ALREADY_THERE))
    if violations:
        raise ApiError(422, INVALID_ADDRESS, violations=violations)
    if len(existing) >= MAX_ADDRESSES:
        raise ApiError(422, TOO_MANY, violations=[Violation("", TOO_MANY)], max=MAX_ADDRESSES)
    address = NoticeAddress(
        company_id=company_id, email=email, language=body.language, time_zone=body.time_zone
    )
    db.add(address)
    db.flush()
    link = confirmation_link(address.id)
    queue(
        db,
        compose(
            NOTICE_ADDRESS,
            name=email,
            email=email,
            language=body.language,
            link=link,
        ),
    )
    db.commit()
    return _out(address)


@router.delete(ADDRESSES + "/{address_id}", status_code=204, response_class=Response)
def remove_address(
    company_id: uuid.UUID, address_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> Response:
    _company(db, principal, company_id)
    address = db.get(NoticeAddress, address_id)
    if address is None or address.company_id != company_id:
        raise ApiError(404)
    db.delete(address)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/notices/confirm/{token}",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "The address is confirmed."},
        404: {"description": "No such link."},
    },
)
def confirm_address(token: str, db: SessionDep) -> Response:
    found = verified(token, "confirm")
    address = db.get(NoticeAddress, found[1]) if found and found[0] == "address" else None
    if address is None:
        raise ApiError(404)
    if address.confirmed_at is None:
        address.confirmed_at = utcnow()
        db.add(address)
        db.commit()
    return Response(status_code=204)
