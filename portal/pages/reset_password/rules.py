"""What the reset and confirm form checks before sending (spec 5): both fields present and
equal. The password rule itself is a hint here; the provider enforces it with a violation."""

from portal.i18n import N_
from portal.validation import BLANK, CONFIRMATION_MISMATCH

INVALID_LINK = N_(
    "This link is invalid or has expired. You can request a new password from the login page."
)


def password_problems(password: str, confirmation: str) -> dict[str, str]:
    """Message ids by field (``password``, ``confirmation``); empty when the form may be sent."""
    problems: dict[str, str] = {}
    if not password:
        problems["password"] = BLANK
    if not confirmation:
        problems["confirmation"] = BLANK
    elif confirmation != password:
        problems["confirmation"] = CONFIRMATION_MISMATCH
    return problems


def failure_kind(status: int) -> str:
    """How a failed reset is told (spec 8): ``fields`` under the password for a 422, the
    provider's own message for a rate limit, the generic text for a server or network failure,
    and the invalid-link text of DESIGN 6 for anything else (unknown, used or expired token)."""
    if status == 422:
        return "fields"
    if status == 429:
        return "provider"
    if status == 0 or status >= 500:
        return "generic"
    return "link"
