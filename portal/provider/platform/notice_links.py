"""The one-click unsubscribe links of the maintenance notices (RFC 8058): signed, single-purpose,
working without signing in (docs/decisions/maintenance-notices.md).

A token names its recipient, a user or a company's extra address, and carries an HMAC-SHA256
of that name under a key derived from the installation's key for this purpose alone: it can
stop that recipient's maintenance notices and do nothing else. Nothing is stored; the previous
key still verifies during a rotation.
"""

import base64
import hashlib
import hmac
import uuid
from typing import Literal

from portal.provider.platform.keys import second_factor_keys
from portal.routes import UNSUBSCRIBE_PATH
from portal.settings import get_settings

Recipient = Literal["user", "address"]
_PURPOSE = b"patchbay maintenance notices: unsubscribe, v1"
_MAC_BYTES = 16


def _mac(key: bytes, payload: str) -> bytes:
    derived = hmac.new(key, _PURPOSE, hashlib.sha256).digest()
    return hmac.new(derived, payload.encode(), hashlib.sha256).digest()[:_MAC_BYTES]


def unsubscribe_token(kind: Recipient, recipient_id: uuid.UUID) -> str:
    payload = f"{kind}.{recipient_id.hex}"
    mac = _mac(second_factor_keys()[0], payload)
    return f"{payload}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def unsubscribe_link(kind: Recipient, recipient_id: uuid.UUID) -> str:
    """The portal's address of the link (the provider may be another host)."""
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{UNSUBSCRIBE_PATH}/{unsubscribe_token(kind, recipient_id)}"


def verified(token: str) -> tuple[Recipient, uuid.UUID] | None:
    """Whom a genuine token names; None for anything else."""
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
    if not any(hmac.compare_digest(_mac(key, payload), given) for key in second_factor_keys()):
        return None
    return ("user" if kind == "user" else "address"), recipient_id
