"""Secrets sealed at rest under the installation's key (``platform.keys``): AES-256-GCM, stored
as ``v1.`` and the base64url of a random 96-bit nonce and the ciphertext with its tag, bound to
a context (what the secret is and whose), so a sealed value copied onto another row does not
open (docs/decisions/secrets-at-rest.md). The TOTP secrets (``accounts.sealing``) and the
webhook signing secrets (``platform.webhooks``) are sealed here.
"""

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from portal.provider.platform.keys import second_factor_keys

VERSION = "v1."
NONCE_BYTES = 12


def seal(secret: str, context: bytes) -> str:
    nonce = os.urandom(NONCE_BYTES)
    current = second_factor_keys()[0]
    sealed = AESGCM(current).encrypt(nonce, secret.encode(), context)
    return VERSION + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(sealed: str, context: bytes) -> tuple[str, bool] | None:
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
            opened = AESGCM(key).decrypt(nonce, body, context)
        except InvalidTag:
            continue
        return opened.decode(), index == 0
    return None
