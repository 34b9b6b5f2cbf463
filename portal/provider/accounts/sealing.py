"""TOTP secrets sealed at rest (issue 47, item 18): AES-256-GCM under ``SECOND_FACTOR_KEY``.

The database held every second factor's secret in clear, so a copy of it (a backup, a stolen
disk, the SQLite file that was 0644) gave whoever had it every staff member's codes. A secret is
now stored as ``v1.`` and the base64url of a random 96-bit nonce and the ciphertext with its tag,
bound to its user's id (a sealed secret copied onto another account does not open). The key
comes from the environment: required in production, generated once into the data directory
elsewhere. ``SECOND_FACTOR_PREVIOUS_KEY`` still opens what it sealed during a rotation
(docs/decisions/secrets-at-rest.md).

A company's OpenID Connect client secret is sealed the same way under its own context, bound to
the company's id (issue 52; docs/decisions/sso-oidc.md).
"""

import base64
import os
import uuid

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from portal.provider.platform.keys import second_factor_keys

VERSION = "v1."
NONCE_BYTES = 12
_CONTEXT = b"patchbay second factor "
SSO_CLIENT_SECRET = b"patchbay sso client secret "


def seal(secret: str, user_id: uuid.UUID, context: bytes = _CONTEXT) -> str:
    """``secret`` sealed for its owner ``user_id`` (a company's id for ``SSO_CLIENT_SECRET``)."""
    nonce = os.urandom(NONCE_BYTES)
    current = second_factor_keys()[0]
    sealed = AESGCM(current).encrypt(nonce, secret.encode(), context + user_id.bytes)
    return VERSION + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(sealed: str, user_id: uuid.UUID, context: bytes = _CONTEXT) -> tuple[str, bool] | None:
    """The secret, and whether it was sealed with the current key (if not, it is due to be
    sealed again); None when no key opens it."""
    if not sealed.startswith(VERSION):
        return None
    try:
        raw = base64.urlsafe_b64decode(sealed[len(VERSION) :])
    except ValueError:
        return None
    nonce, body = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
    for index, key in enumerate(second_factor_keys()):
        try:
            opened = AESGCM(key).decrypt(nonce, body, context + user_id.bytes)
        except InvalidTag:
            continue
        return opened.decode(), index == 0
    return None
