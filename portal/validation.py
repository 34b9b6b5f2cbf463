"""The validation rules of spec section 5, as plain functions shared by the portal and the provider.

Messages are message ids (``N_``): the portal shows them in the user's language, the provider
returns them translated as 422 violations. Neither side may accept what the other refuses.
"""

import re
from collections.abc import Iterable

from portal.i18n import N_
from portal.permissions import has_admin_role

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
PASSWORD_MIN_LENGTH = 10
PHONE_MAX_LENGTH = 50
NAME_MAX_LENGTH = 100
EMAIL_MAX_LENGTH = 254

BLANK = N_("This value should not be blank.")
INVALID_EMAIL = N_("Invalid email")
TOO_LONG = N_("This value must be {max} characters or less.")
TOO_SHORT = N_("This value must be {min} characters or more.")
NOT_ALPHANUMERIC = N_("This value must only contains letters or numbers.")
CONFIRMATION_MISMATCH = N_("The password confirmation does not match.")
PASSWORD_HINT = N_("At least 10 characters, including one number and one uppercase letter.")
# Spec 5: ROLE_ADMIN and ROLE_SPH_MANAGE_USERS need an e-mail of the staff mail domain, and
# since issue 47, item 19 every staff role does (``portal.permissions.staff_domain_violation``).
# The spec's message for the administrator roles, another for read-only or sales staff.
ADMIN_ROLE_REFUSED = N_("Unable to assign an Administrator role to an external user")
STAFF_ROLE_REFUSED = N_("Unable to assign a staff role to an external user")
WEAK_PASSWORD = N_(
    "The password must have at least 10 characters, including one number and one uppercase letter."
)


def staff_role_refusal(roles: Iterable[str]) -> str:
    """The message refusing ``roles`` to an e-mail outside the staff mail domain."""
    return ADMIN_ROLE_REFUSED if has_admin_role(roles) else STAFF_ROLE_REFUSED


def is_blank(value: object) -> bool:
    """Required means present; 0 counts as a value (spec 5)."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, dict)):
        return not value
    return False


def is_email(value: str) -> bool:
    return bool(EMAIL_PATTERN.match(value.strip()))


def is_alphanumeric(value: str) -> bool:
    return value.isalnum()


def password_weaknesses(password: str) -> list[str]:
    """What the password lacks under the rule of spec section 9, in plain English for the CLI;
    empty when it is strong."""
    lacking = []
    if len(password) < PASSWORD_MIN_LENGTH:
        lacking.append(f"at least {PASSWORD_MIN_LENGTH} characters")
    if not any(char.isdigit() for char in password):
        lacking.append("a digit")
    if not any(char.isupper() for char in password):
        lacking.append("an uppercase letter")
    return lacking


def is_strong_password(password: str) -> bool:
    return not password_weaknesses(password)
