"""The links of the maintenance notices and ticket e-mails, signed, single-purpose, working
without logging in (docs/decisions/maintenance-notices.md): the one-click unsubscribe (RFC 8058),
and the confirmation of a company's extra address.

A token names its recipient, a user or an extra address, and carries an HMAC-SHA256 of that
name under a key derived from the installation's key for its purpose alone: an unsubscribe
token stops that recipient's maintenance notices, a ticket token (``tickets.{user}``, its
purpose in its name so the page can say what it stops) that user's ticket e-mails, a
confirmation token confirms that address, and none does anything else. Nothing is stored; the
previous key still verifies during a rotation.
"""

import base64
import hashlib
import hmac
import uuid
from typing import Literal

from portal.provider.platform.keys import second_factor_keys
from portal.routes import CONFIRM_NOTICES_PATH, UNSUBSCRIBE_PATH
from portal.settings import get_settings

# Who a token names: a user, an extra address, or a user for their ticket e-mails.
Recipient = Literal["user", "address", "tickets"]
Purpose = Literal["unsubscribe", "confirm", "tickets"]
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


def ticket_unsubscribe_link(user_id: uuid.UUID) -> str:
    """The link that stops a user's ticket e-mails, on the portal's unsubscribe route."""
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{UNSUBSCRIBE_PATH}/{signed_token('tickets', 'tickets', user_id)}"


def confirmation_link(address_id: uuid.UUID) -> str:
    base = get_settings().portal_public_url.rstrip("/")
    return f"{base}{CONFIRM_NOTICES_PATH}/{signed_token('confirm', 'address', address_id)}"


def verified(token: str, purpose: Purpose = "unsubscribe") -> tuple[Recipient, uuid.UUID] | None:
    """Whom a genuine token of ``purpose`` names; None for anything else."""
    kind, _, rest = token.partition(".")
    hex_id, _, signature = rest.partition(".")
    if kind not in ("user", "address", "tickets") or len(hex_id) != 32 or len(signature) > 40:
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
    found: Recipient = "user" if kind == "user" else "tickets" if kind == "tickets" else "address"
    return found, recipient_id
