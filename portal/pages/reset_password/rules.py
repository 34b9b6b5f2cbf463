"""What the reset and confirm form checks before sending (spec 5): both fields present and
equal. The password rule itself is a hint here; the provider enforces it with a violation."""

from portal.client import NetworkError, ProviderError, RateLimited, ServerError, ValidationFailed
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


def failure_kind(error: ProviderError) -> str:
    """How a failed reset is told (spec 8), by the client's error classes: ``fields`` under the
    password for a refusal with violations, the provider's own message for a rate limit, what
    every screen says of a server or network failure (``failure_text``), and the invalid-link
    text of DESIGN 6 for anything else (unknown, used or expired token)."""
    if isinstance(error, ValidationFailed):
        return "fields"
    if isinstance(error, RateLimited):
        return "provider"
    if isinstance(error, ServerError | NetworkError):
        return "generic"
    return "link"
