"""TOTP secrets sealed at rest (issue 47, item 18): AES-256-GCM under ``SECOND_FACTOR_KEY``.

The database held every second factor's secret in clear, so a copy of it (a backup, a stolen
disk, the SQLite file that was 0644) gave whoever had it every staff member's codes. A secret is
now stored as ``v1.`` and the base64url of a random 96-bit nonce and the ciphertext with its tag,
bound to its user's id (a sealed secret copied onto another account does not open). The key
comes from the environment: required in production, generated once into the data directory
elsewhere. ``SECOND_FACTOR_PREVIOUS_KEY`` still opens what it sealed during a rotation
(docs/decisions/secrets-at-rest.md).
"""

import base64
import logging
import os
import secrets
import uuid
from functools import lru_cache
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from portal.private_files import PRIVATE_FILE, private_directory
from portal.settings import get_settings

logger = logging.getLogger(__name__)

VERSION = "v1."
KEY_BYTES = 32
NONCE_BYTES = 12
DEVELOPMENT_KEY_FILE = "second-factor.key"
_CONTEXT = b"patchbay second factor "


class KeyProblem(RuntimeError):
    """The key is missing in production, or is not 32 bytes in base64url: the provider does
    not start."""


def seal(secret: str, user_id: uuid.UUID) -> str:
    nonce = os.urandom(NONCE_BYTES)
    current = second_factor_keys()[0]
    sealed = AESGCM(current).encrypt(nonce, secret.encode(), _CONTEXT + user_id.bytes)
    return VERSION + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(sealed: str, user_id: uuid.UUID) -> tuple[str, bool] | None:
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
            opened = AESGCM(key).decrypt(nonce, body, _CONTEXT + user_id.bytes)
        except InvalidTag:
            continue
        return opened.decode(), index == 0
    return None


def second_factor_keys() -> tuple[bytes, ...]:
    """The key that seals, then the previous one, which only opens."""
    settings = get_settings()
    return _keys(
        settings.second_factor_key.get_secret_value(),
        settings.second_factor_previous_key.get_secret_value(),
        settings.data_dir if settings.is_development else None,
    )


@lru_cache
def _keys(current: str, previous: str, development_dir: Path | None) -> tuple[bytes, ...]:
    if not current and development_dir is None:
        raise KeyProblem(
            "SECOND_FACTOR_KEY must be set in production: it seals the second factors' "
            'secrets. Make one with `python -c "import secrets; print(secrets.token_urlsafe(32))"` '
            "and keep it with the other secrets of the installation, not with the backups."
        )
    if not current and development_dir is not None:
        current = _development_key(development_dir)
    keys = [_key_bytes("SECOND_FACTOR_KEY", current)]
    if previous:
        keys.append(_key_bytes("SECOND_FACTOR_PREVIOUS_KEY", previous))
    return tuple(keys)


def _key_bytes(name: str, value: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        # The value itself is never printed: it may be a real key set in the wrong form.
        raise KeyProblem(f"{name} must be {KEY_BYTES} random bytes in base64url")
    return key


def _development_key(data_dir: Path) -> str:
    """The key of a development installation, generated into the data directory (0600) the
    first time. Written whole under another name and then linked, so processes starting
    together all read the key that won, never a partial one."""
    path = data_dir / DEVELOPMENT_KEY_FILE
    if not path.exists():
        private_directory(data_dir)
        draft = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
        descriptor = os.open(draft, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE_FILE)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
        try:
            os.link(draft, path)
            logger.info("Generated the development key of the second factors in %s", path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
