"""The links of the maintenance notices, signed, single-purpose, working without signing in
(docs/decisions/maintenance-notices.md): the one-click unsubscribe (RFC 8058), and the
confirmation of a company's extra address.

A token names its recipient, a user or an extra address, and carries an HMAC-SHA256 of that
name under a key derived from the installation's key for its purpose alone: an unsubscribe
token stops that recipient's notices, a confirmation token confirms that address, and neither
does anything else. Nothing is stored; the previous key still verifies during a rotation.
"""

import base64
import hashlib
import hmac
import uuid
from typing import Literal

from portal.provider.platform.keys import second_factor_keys
from portal.routes import CONFIRM_NOTICES_PATH, UNSUBSCRIBE_PATH
from portal.settings import get_settings

Recipient = Literal["user", "address"]
Purpose = Literal["unsubscribe", "confirm"]
_MAC_BYTES = 16


def _mac(key: bytes, purpose: Purpose, payload: str) -> bytes:
    label = f"patchbay maintenance notices: {purpose}, v1".encode()
    derived = hmac.new(key, label, hashlib.sha256).digest()
    return hmac.new(derived, payload.encode(), hashlib.sha256).digest()[:_MAC_BYTES]


def signed_token(purpose: Purpose, kind: Recipient, recipient_id: uuid.UUID) -> str:
    payload = f"{kind}.{recipient_id.hex}"
    mac = _mac(second_factor_keys()[0], purpose, payload)
    return f"{payload}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def unsubscribe_link(kind: Recipient, recipient_id: uuid.UUID) -> str:
    """The portal's address of the link (the provider may be another host)."""
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{UNSUBSCRIBE_PATH}/{signed_token('unsubscribe', kind, recipient_id)}"


def confirmation_link(address_id: uuid.UUID) -> str:
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{CONFIRM_NOTICES_PATH}/{signed_token('confirm', 'address', address_id)}"


def verified(token: str, purpose: Purpose = "unsubscribe") -> tuple[Recipient, uuid.UUID] | None:
    """Whom a genuine token of ``purpose`` names; None for anything else."""
    kind, _, rest = token.partition(".")
    hex_id, _, signature = rest.partition(".")
    if kind not in ("user", "address") or len(hex_id) != 32 or len(signature) > 40:
        return None
    try:
        recipient_id = uuid.UUID(hex=hex_id)
        given = base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4))
    except ValueError:
        return None
    payload = f"{kind}.{hex_id}"
    keys = second_factor_keys()
    if not any(hmac.compare_digest(_mac(key, purpose, payload), given) for key in keys):
        return None
    return ("user" if kind == "user" else "address"), recipient_id
