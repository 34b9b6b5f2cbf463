"""Password hashing with argon2id (DESIGN section 4)."""

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()  # argon2id with the library's current recommended parameters


def hash_password(password: str) -> str:
    return _hasher.hash(password)


@cache
def _dummy_hash() -> str:
    return _hasher.hash("patchbay-dummy-password")


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; without a hash (unknown account, no password set yet) a
    dummy hash is verified anyway, so the answer takes as long and reveals nothing."""
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's."""
    return _hasher.check_needs_rehash(password_hash)
