"""TOTP second factor (issue 18, item 10; RFC 6238 with pyotp): enrolment, codes, recovery codes
and remembered devices. Secrets of the browser (pending-login and device tokens) and recovery
codes are stored as SHA-256 digests only. Whatever is single-use (a TOTP code's time step, a
recovery code, a pending login) is spent by one conditional statement whose row count decides,
so requests racing with the same code cannot both pass (issue 47, item 14)."""

import io
import logging
import secrets
import uuid
from datetime import timedelta
from typing import Any, cast

import pyotp
import segno
from sqlalchemy import ColumnElement, CursorResult, exists
from sqlmodel import Session, col, delete, select, update

from portal.provider.accounts.sealing import seal, unseal
from portal.provider.platform.models import (
    Passkey,
    PendingLogin,
    RecoveryCode,
    RememberedDevice,
    SecondFactor,
    utcnow,
)
from portal.provider.platform.people import Someone
from portal.provider.platform.sessions import token_hash

logger = logging.getLogger(__name__)

ISSUER = "Patchbay"
RECOVERY_CODES = 10
PENDING_LOGIN = timedelta(minutes=5)
REMEMBERED_DEVICE = timedelta(days=30)
PENDING_COOKIE = "PATCHBAY_PROVIDER_PENDING_LOGIN"
DEVICE_COOKIE = "PATCHBAY_PROVIDER_DEVICE"


def confirmed_factor(db: Session, user_id: uuid.UUID) -> SecondFactor | None:
    factor = db.get(SecondFactor, user_id)
    return factor if factor is not None and factor.confirmed_at is not None else None


def second_factor_methods(db: Session, user_id: uuid.UUID) -> list[str]:
    """The second factors the user has set up (issue 52): ``totp``, ``passkey``, both or none;
    with either, a login's second step is due and recovery codes serve. One statement: every
    password login asks."""
    confirmed = (
        select(col(SecondFactor.confirmed_at).is_not(None))
        .where(col(SecondFactor.user_id) == user_id)
        .scalar_subquery()
    )
    has_passkey = exists().where(col(Passkey.user_id) == user_id)
    totp, passkey = db.exec(select(confirmed, has_passkey)).one()
    return [name for name, held in (("totp", totp), ("passkey", passkey)) if held]


def start_enrolment(db: Session, user: Someone) -> tuple[str, str, str]:
    """A new unconfirmed secret for ``user``: (secret, otpauth URI, QR code as SVG)."""
    secret = pyotp.random_base32()
    sealed = seal(secret, user.id)
    factor = db.get(SecondFactor, user.id) or SecondFactor(user_id=user.id, sealed_secret=sealed)
    factor.sealed_secret, factor.confirmed_at, factor.last_step = sealed, None, 0
    db.add(factor)
    uri = pyotp.TOTP(secret).provisioning_uri(name=user.email, issuer_name=ISSUER)
    svg = io.BytesIO()
    segno.make(uri, error="m").save(svg, kind="svg", scale=4, xmldecl=False, svgns=True)
    return secret, uri, svg.getvalue().decode()


def _code_step(factor: SecondFactor, code: str) -> tuple[int, str] | None:
    """The time step whose TOTP ``code`` is, within a step of now either way (clock drift), with
    the sealed secret to store: the same, or sealed again if the previous key opened it."""
    code = code.replace(" ", "")
    if not (code.isdigit() and len(code) == 6):
        return None
    opened = unseal(factor.sealed_secret, factor.user_id)
    if opened is None:
        logger.error("No key opens the second factor of user %s", factor.user_id)
        return None
    secret, current_key = opened
    totp = pyotp.TOTP(secret)
    now = utcnow()
    for drift in (-1, 0, 1):
        at = now + timedelta(seconds=30 * drift)
        if secrets.compare_digest(totp.at(at), code):
            sealed = factor.sealed_secret if current_key else seal(secret, factor.user_id)
            return totp.timecode(at), sealed
    return None


def _spent(result: object) -> bool:
    """Whether the conditional statement changed its row: only one of the racing requests
    does."""
    return cast(CursorResult[Any], result).rowcount == 1


def accept_code(db: Session, factor: SecondFactor, code: str) -> bool:
    """Whether ``code`` is the TOTP of now (±30 s) and newer than any accepted before."""
    return _claim(db, factor, code, col(SecondFactor.confirmed_at).is_not(None))


def confirm(db: Session, factor: SecondFactor, code: str) -> bool:
    """The first right code confirms an enrolment, once."""
    confirmed_at = col(SecondFactor.confirmed_at)
    return _claim(db, factor, code, confirmed_at.is_(None), confirmed_at=utcnow())


def _claim(
    db: Session, factor: SecondFactor, code: str, state: ColumnElement[bool], **values: object
) -> bool:
    """The code's step claimed by a conditional UPDATE, so a code serves once however many
    requests bring it at the same time."""
    found = _code_step(factor, code)
    if found is None:
        return False
    step, sealed_secret = found
    claimed = db.exec(
        update(SecondFactor)
        .where(
            col(SecondFactor.user_id) == factor.user_id,
            col(SecondFactor.last_step) < step,
            state,
        )
        .values(last_step=step, sealed_secret=sealed_secret, **values)
    )
    return _spent(claimed)


def new_recovery_codes(db: Session, user_id: uuid.UUID) -> list[str]:
    """Ten fresh single-use codes (the old ones end); only their digests are stored."""
    db.exec(delete(RecoveryCode).where(col(RecoveryCode.user_id) == user_id))
    codes = [f"{secrets.token_hex(4)}-{secrets.token_hex(4)}" for _ in range(RECOVERY_CODES)]
    for code in codes:
        db.add(RecoveryCode(user_id=user_id, code_hash=token_hash(code)))
    return codes


def spend_recovery_code(db: Session, user_id: uuid.UUID, code: str) -> bool:
    return _spent(
        db.exec(
            update(RecoveryCode)
            .where(
                col(RecoveryCode.code_hash) == token_hash(code.strip().lower()),
                col(RecoveryCode.user_id) == user_id,
                col(RecoveryCode.used_at).is_(None),
            )
            .values(used_at=utcnow())
        )
    )


def open_pending_login(db: Session, user_id: uuid.UUID) -> str:
    token = secrets.token_urlsafe(32)
    db.add(PendingLogin(id=token_hash(token), user_id=user_id, expires_at=utcnow() + PENDING_LOGIN))
    return token


def pending_login(db: Session, token: str) -> PendingLogin | None:
    pending = db.get(PendingLogin, token_hash(token)) if token else None
    return pending if pending is not None and pending.expires_at > utcnow() else None


def end_pending_login(db: Session, pending: PendingLogin) -> bool:
    """Spends a pending login; False when a request racing this one spent it first."""
    return _spent(db.exec(delete(PendingLogin).where(col(PendingLogin.id) == pending.id)))


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
    """Removes the user's factor, passkeys, recovery codes and remembered devices; whether one
    existed."""
    existed = db.get(SecondFactor, user_id) is not None or bool(
        db.exec(select(Passkey.id).where(Passkey.user_id == user_id).limit(1)).first()
    )
    for model in (SecondFactor, Passkey, RecoveryCode, RememberedDevice, PendingLogin):
        db.exec(delete(model).where(col(model.user_id) == user_id))
    return existed
