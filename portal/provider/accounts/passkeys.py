"""Passkeys (issue 52, item 1; WebAuthn with the ``webauthn`` package): the registration and
authentication ceremonies, checked here.

The relying party is the portal: its id is the host of ``PORTAL_PUBLIC_URL`` and the only
origin accepted is that URL's. Every ceremony's challenge is kept in ``webauthn_challenges``
under the SHA-256 of a token that only the portal's backend holds, expires after five minutes
and is spent by the one conditional ``DELETE`` whose row count decides, as every single-use
secret of the second factor is (``second_factor``). User verification is required at
registration and at every login, and a signature counter that does not grow (when the
authenticator keeps one) refuses the assertion: a cloned authenticator.
"""

import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast
from urllib.parse import urlsplit

from sqlalchemy import CursorResult
from sqlmodel import Session, col, delete, or_, select, update
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialDescriptor,
    PublicKeyCredentialRequestOptions,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from portal.provider.platform.models import Passkey, User, WebAuthnChallenge, utcnow
from portal.provider.platform.sessions import token_hash
from portal.settings import get_settings, origin_of

CHALLENGE_LIFETIME = timedelta(minutes=5)
TIMEOUT_MS = 120_000
REGISTER = "register"
SIGN_IN = "sign_in"
SECOND_FACTOR = "second_factor"


@dataclass(frozen=True)
class Ceremony:
    """Options for ``navigator.credentials``, and the token the portal keeps to finish it."""

    token: str
    options: dict[str, Any]


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origin: str
    name: str


def relying_party() -> RelyingParty:
    settings = get_settings()
    host = urlsplit(settings.portal_public_url).hostname or "localhost"
    return RelyingParty(host, origin_of(settings.portal_public_url), settings.company_name)


def _open(db: Session, purpose: str, user_id: uuid.UUID | None, challenge: bytes) -> str:
    token = secrets.token_urlsafe(32)
    db.add(
        WebAuthnChallenge(
            id=token_hash(token),
            user_id=user_id,
            purpose=purpose,
            challenge=bytes_to_base64url(challenge),
            expires_at=utcnow() + CHALLENGE_LIFETIME,
        )
    )
    return token


def spend_challenge(db: Session, token: str, purpose: str) -> WebAuthnChallenge | None:
    """The ceremony's challenge, spent now: None when unknown, expired, of another purpose, or
    already spent by another request (the ``DELETE`` that changed no row)."""
    found = db.get(WebAuthnChallenge, token_hash(token)) if token else None
    if found is None or found.purpose != purpose:
        return None
    spent = db.exec(delete(WebAuthnChallenge).where(col(WebAuthnChallenge.id) == found.id))
    if cast(CursorResult[Any], spent).rowcount != 1 or found.expires_at <= utcnow():
        return None
    return found


def purge_expired_challenges(db: Session) -> None:
    db.exec(delete(WebAuthnChallenge).where(col(WebAuthnChallenge.expires_at) <= utcnow()))


def _options(
    options: PublicKeyCredentialCreationOptions | PublicKeyCredentialRequestOptions,
) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(options_to_json(options)))


def user_passkeys(db: Session, user_id: uuid.UUID) -> list[Passkey]:
    statement = select(Passkey).where(Passkey.user_id == user_id).order_by(col(Passkey.created_at))
    return list(db.exec(statement).all())


def start_registration(db: Session, user: User) -> Ceremony:
    """A discoverable credential with user verification; the user's own passkeys excluded, so
    one authenticator is not registered twice."""
    rp = relying_party()
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=rp.name,
        user_name=user.email,
        user_id=user.id.bytes,
        user_display_name=user.full_name,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id))
            for passkey in user_passkeys(db, user.id)
        ],
    )
    return Ceremony(_open(db, REGISTER, user.id, options.challenge), _options(options))


def finish_registration(
    db: Session, user_id: uuid.UUID, token: str, credential: dict[str, Any], name: str
) -> Passkey | None:
    """The new passkey, or None when the challenge or the authenticator's answer is refused."""
    challenge = spend_challenge(db, token, REGISTER)
    if challenge is None or challenge.user_id != user_id:
        return None
    rp = relying_party()
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        return None
    credential_id = bytes_to_base64url(verified.credential_id)
    if db.exec(select(Passkey.id).where(Passkey.credential_id == credential_id)).first():
        return None
    passkey = Passkey(
        user_id=user_id,
        credential_id=credential_id,
        public_key=bytes_to_base64url(verified.credential_public_key),
        sign_count=verified.sign_count,
        name=name,
    )
    db.add(passkey)
    return passkey


def start_authentication(db: Session, user_id: uuid.UUID | None) -> Ceremony:
    """A login by any discoverable credential (``user_id`` None), or the second step of a
    pending login, offering that user's passkeys only."""
    allowed = [] if user_id is None else user_passkeys(db, user_id)
    options = generate_authentication_options(
        rp_id=relying_party().id,
        timeout=TIMEOUT_MS,
        allow_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id))
            for passkey in allowed
        ],
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    purpose = SIGN_IN if user_id is None else SECOND_FACTOR
    return Ceremony(_open(db, purpose, user_id, options.challenge), _options(options))


def _credential_id(credential: dict[str, Any]) -> str:
    raw = credential.get("rawId") or credential.get("id")
    return raw if isinstance(raw, str) else ""


def _user_handle(credential: dict[str, Any]) -> str | None:
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    return handle if isinstance(handle, str) and handle else None


def authenticate(
    db: Session, token: str, credential: dict[str, Any], purpose: str
) -> Passkey | None:
    """The passkey that signed the challenge, its counter and last use updated; None when the
    challenge, the credential, its owner, the signature, the user verification or the counter
    is refused. For a pending login (``SECOND_FACTOR``) only that user's passkeys count."""
    challenge = spend_challenge(db, token, purpose)
    if challenge is None:
        return None
    passkey = db.exec(
        select(Passkey).where(Passkey.credential_id == _credential_id(credential))
    ).first()
    if passkey is None or (challenge.user_id is not None and passkey.user_id != challenge.user_id):
        return None
    handle = _user_handle(credential)
    if handle is not None and handle != bytes_to_base64url(passkey.user_id.bytes):
        return None
    rp = relying_party()
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(challenge.challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=True,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        return None
    # The counter moves by a conditional UPDATE: of two assertions racing with the same
    # counter, one wins. Authenticators that keep no counter (always 0) stay at 0.
    count = verified.new_sign_count
    counted = db.exec(
        update(Passkey)
        .where(
            col(Passkey.id) == passkey.id,
            or_(col(Passkey.sign_count) < count, col(Passkey.sign_count) == 0),
        )
        .values(sign_count=count, last_used_at=utcnow())
    )
    if cast(CursorResult[Any], counted).rowcount != 1:
        return None
    db.refresh(passkey)
    return passkey


def remove_all(db: Session, user_id: uuid.UUID) -> bool:
    """Removes the user's passkeys and ceremonies under way (an administrator's reset)."""
    existed = bool(user_passkeys(db, user_id))
    for model in (Passkey, WebAuthnChallenge):
        db.exec(delete(model).where(col(model.user_id) == user_id))
    return existed
