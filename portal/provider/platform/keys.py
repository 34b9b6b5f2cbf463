"""The installation's key, ``SECOND_FACTOR_KEY``: it seals the TOTP secrets in the database
(``portal.provider.accounts.sealing``) and, through a key derived from it, signs the links of the
maintenance notices (``portal.provider.platform.notice_links``). Required in production,
generated once into the data directory elsewhere; ``SECOND_FACTOR_PREVIOUS_KEY`` still opens
and verifies during a rotation (docs/decisions/secrets-at-rest.md).
"""

import base64
import logging
import os
import secrets
from functools import lru_cache
from pathlib import Path

from portal.private_files import PRIVATE_FILE, private_directory
from portal.settings import get_settings

logger = logging.getLogger(__name__)

KEY_BYTES = 32
DEVELOPMENT_KEY_FILE = "second-factor.key"


class KeyProblem(RuntimeError):
    """The key is missing in production, or is not 32 bytes in base64url: the provider does
    not start."""


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
