"""TOTP second factor (issue 18, item 10; RFC 6238 with pyotp): enrolment, codes, recovery codes
and remembered devices. Secrets of the browser (pending-login and device tokens) and recovery
codes are stored as SHA-256 digests only; a TOTP code is accepted once (``last_step``)."""

import io
import secrets
import uuid
from datetime import timedelta

import pyotp
import segno
from sqlmodel import Session, col, delete, select

from portal.permissions import SECOND_FACTOR_ROLES
from portal.provider.models import (
    PendingLogin,
    RecoveryCode,
    RememberedDevice,
    SecondFactor,
    utcnow,
)
from portal.provider.people import Someone
from portal.provider.sessions import token_hash
from portal.settings import get_settings

ISSUER = "Patchbay"
RECOVERY_CODES = 10
PENDING_LOGIN = timedelta(minutes=5)
REMEMBERED_DEVICE = timedelta(days=30)
PENDING_COOKIE = "PATCHBAY_PROVIDER_PENDING_LOGIN"
DEVICE_COOKIE = "PATCHBAY_PROVIDER_DEVICE"


def required_of(user: Someone) -> bool:
    """Whether SECOND_FACTOR_REQUIRED applies to ``user``: the staff who may impersonate or
    manage users."""
    return get_settings().staff_second_factor_required and bool(
        set(user.roles) & SECOND_FACTOR_ROLES
    )


def confirmed_factor(db: Session, user_id: uuid.UUID) -> SecondFactor | None:
    factor = db.get(SecondFactor, user_id)
    return factor if factor is not None and factor.confirmed_at is not None else None


def start_enrolment(db: Session, user: Someone) -> tuple[str, str, str]:
    """A new unconfirmed secret for ``user``: (secret, otpauth URI, QR code as SVG)."""
    secret = pyotp.random_base32()
    factor = db.get(SecondFactor, user.id) or SecondFactor(user_id=user.id, secret=secret)
    factor.secret, factor.confirmed_at, factor.last_step = secret, None, 0
    db.add(factor)
    uri = pyotp.TOTP(secret).provisioning_uri(name=user.email, issuer_name=ISSUER)
    svg = io.BytesIO()
    segno.make(uri, error="m").save(svg, kind="svg", scale=4, xmldecl=False, svgns=True)
    return secret, uri, svg.getvalue().decode()


def accept_code(factor: SecondFactor, code: str) -> bool:
    """Whether ``code`` is the TOTP of now (±30 s) and newer than the last accepted one."""
    code = code.replace(" ", "")
    if not (code.isdigit() and len(code) == 6):
        return False
    totp = pyotp.TOTP(factor.secret)
    now = utcnow()
    for drift in (-1, 0, 1):
        at = now + timedelta(seconds=30 * drift)
        step = totp.timecode(at)
        if step > factor.last_step and secrets.compare_digest(totp.at(at), code):
            factor.last_step = step
            return True
    return False


def new_recovery_codes(db: Session, user_id: uuid.UUID) -> list[str]:
    """Ten fresh single-use codes (the old ones end); only their digests are stored."""
    db.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    codes = [f"{secrets.token_hex(4)}-{secrets.token_hex(4)}" for _ in range(RECOVERY_CODES)]
    for code in codes:
        db.add(RecoveryCode(user_id=user_id, code_hash=token_hash(code)))
    return codes


def spend_recovery_code(db: Session, user_id: uuid.UUID, code: str) -> bool:
    stored = db.exec(
        select(RecoveryCode).where(
            RecoveryCode.code_hash == token_hash(code.strip().lower()),
            RecoveryCode.user_id == user_id,
            col(RecoveryCode.used_at).is_(None),
        )
    ).first()
    if stored is None:
        return False
    stored.used_at = utcnow()
    db.add(stored)
    return True


def open_pending_login(db: Session, user_id: uuid.UUID) -> str:
    token = secrets.token_urlsafe(32)
    db.add(PendingLogin(id=token_hash(token), user_id=user_id, expires_at=utcnow() + PENDING_LOGIN))
    return token


def pending_login(db: Session, token: str) -> PendingLogin | None:
    pending = db.get(PendingLogin, token_hash(token)) if token else None
    return pending if pending is not None and pending.expires_at > utcnow() else None


def remember_device(db: Session, user_id: uuid.UUID) -> str:
    token = secrets.token_urlsafe(32)
    db.add(
        RememberedDevice(
            id=token_hash(token), user_id=user_id, expires_at=utcnow() + REMEMBERED_DEVICE
        )
    )
    return token


def is_remembered(db: Session, user_id: uuid.UUID, token: str) -> bool:
    device = db.get(RememberedDevice, token_hash(token)) if token else None
    return device is not None and device.user_id == user_id and device.expires_at > utcnow()


def reset(db: Session, user_id: uuid.UUID) -> bool:
    """Removes the user's factor, recovery codes and remembered devices; whether one existed."""
    existed = db.get(SecondFactor, user_id) is not None
    for model in (SecondFactor, RecoveryCode, RememberedDevice, PendingLogin):
        db.exec(delete(model).where(col(model.user_id) == user_id))
    return existed
