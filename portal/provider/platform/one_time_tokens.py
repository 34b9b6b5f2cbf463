"""Password reset and account confirmation tokens (DESIGN section 4).

A token is 256 random bits handed out once, in a link; only its SHA-256 is stored. It works
once, until it expires (1 hour for a reset, 7 days for a confirmation), and a successful use
spends every other outstanding token of the same user.
"""

import secrets
from datetime import timedelta

from sqlmodel import Session, col, select, update

from portal.provider.platform.models import OneTimeToken, TokenPurpose, User, utcnow
from portal.provider.platform.sessions import token_hash

LIFETIMES = {TokenPurpose.RESET: timedelta(hours=1), TokenPurpose.CONFIRM: timedelta(days=7)}


def new_token() -> tuple[str, str]:
    """A fresh token and its hash; also the equal amount of work done for an unknown e-mail."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def issue(db: Session, user: User, purpose: TokenPurpose) -> str:
    """Store a new token for ``user`` (the caller commits) and return it in clear."""
    token, hashed = new_token()
    db.add(
        OneTimeToken(
            token_hash=hashed,
            user_id=user.id,
            purpose=purpose,
            expires_at=utcnow() + LIFETIMES[purpose],
        )
    )
    return token


def live_token(db: Session, token: str) -> OneTimeToken | None:
    """The unused, unexpired token whose hash matches, if any."""
    return db.exec(
        select(OneTimeToken).where(
            OneTimeToken.token_hash == token_hash(token),
            col(OneTimeToken.used_at).is_(None),
            col(OneTimeToken.expires_at) > utcnow(),
        )
    ).first()


def spend_all(db: Session, user_id: object) -> None:
    """Mark every outstanding token of the user used: one reset spends the other links too."""
    db.exec(
        update(OneTimeToken)
        .where(col(OneTimeToken.user_id) == user_id, col(OneTimeToken.used_at).is_(None))
        .values(used_at=utcnow())
    )
