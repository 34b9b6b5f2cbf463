"""E-mail of the provider: account confirmation and password reset (DESIGN section 4).

Each ``send_*`` issues a token and queues the message with the database session; the caller
commits, and only then does the message leave (``outbox``), by SMTP or as an ``.eml`` file
(``transport``).
"""

from sqlmodel import Session

from portal.provider.platform import one_time_tokens
from portal.provider.platform.mail.messages import (
    CONFIRMATION,
    PASSWORD_RESET,
    compose,
    confirmation_link,
    reset_link,
)
from portal.provider.platform.mail.outbox import queue, wait_for_deliveries
from portal.provider.platform.models import TokenPurpose, User

__all__ = ["send_account_confirmation", "send_password_reset", "wait_for_deliveries"]


def send_account_confirmation(db: Session, user: User, language: str) -> None:
    """Issue a 7-day confirmation token and mail its link to ``user`` in ``language``."""
    token = one_time_tokens.issue(db, user, TokenPurpose.CONFIRM)
    link = confirmation_link(token)
    queue(
        db,
        compose(CONFIRMATION, name=user.full_name, email=user.email, language=language, link=link),
    )


def send_password_reset(db: Session, user: User) -> None:
    """Issue a 1-hour reset token and mail its link to ``user`` in the user's language."""
    token = one_time_tokens.issue(db, user, TokenPurpose.RESET)
    link = reset_link(token)
    queue(
        db,
        compose(
            PASSWORD_RESET, name=user.full_name, email=user.email, language=user.language, link=link
        ),
    )
