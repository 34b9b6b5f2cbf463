"""TOTP secrets sealed at rest (issue 47, item 18): AES-256-GCM under ``SECOND_FACTOR_KEY``.

The database held every second factor's secret in clear, so a copy of it (a backup, a stolen
disk, the SQLite file that was 0644) gave whoever had it every staff member's codes. A secret is
now stored as ``v1.`` and the base64url of a random 96-bit nonce and the ciphertext with its tag,
bound to its user's id (a sealed secret copied onto another account does not open). The key
comes from the environment: required in production, generated once into the data directory
elsewhere. ``SECOND_FACTOR_PREVIOUS_KEY`` still opens what it sealed during a rotation
(docs/decisions/secrets-at-rest.md). The sealing itself is ``platform.sealed``, which webhook
secrets share.

A company's OpenID Connect client secret is sealed the same way under its own context, bound to
the company's id (issue 52; docs/decisions/sso-oidc.md).
"""

import uuid

from portal.provider.platform import sealed as sealing

_CONTEXT = b"patchbay second factor "
SSO_CLIENT_SECRET = b"patchbay sso client secret "


def seal(secret: str, user_id: uuid.UUID, context: bytes = _CONTEXT) -> str:
    """``secret`` sealed for its owner ``user_id`` (a company's id for ``SSO_CLIENT_SECRET``)."""
    return sealing.seal(secret, context + user_id.bytes)


def unseal(sealed: str, user_id: uuid.UUID, context: bytes = _CONTEXT) -> tuple[str, bool] | None:
    """The secret, and whether it was sealed with the current key (if not, it is due to be
    sealed again); None when no key opens it."""
    return sealing.unseal(sealed, context + user_id.bytes)
