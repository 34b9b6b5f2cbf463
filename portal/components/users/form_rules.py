"""What the user form checks and sends (spec 5 and 7), as plain functions the tests read.

Problems are (message id, params) pairs keyed by the provider's JSON field names, so a 422's
violations and the form's own checks land under the same field.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from portal.client import UserPayload
from portal.permissions import staff_domain_violation
from portal.validation import (
    BLANK,
    CONFIRMATION_MISMATCH,
    EMAIL_MAX_LENGTH,
    INVALID_EMAIL,
    NAME_MAX_LENGTH,
    PHONE_MAX_LENGTH,
    TOO_LONG,
    is_blank,
    is_email,
    staff_role_refusal,
)

# The form's fields by their JSON names; a violation on any other path is an alert line.
FIELDS = (
    "firstname",
    "lastname",
    "email",
    "phoneNumber",
    "password",
    "confirmPassword",
    "roles",
    "ldap",
    "company",
    "auxiliaryCompanies",
)
Problem = tuple[str, dict[str, object]]


@dataclass(frozen=True)
class FormValues:
    firstname: str = ""
    lastname: str = ""
    email: str = ""
    phone_number: str = ""
    password: str = ""
    confirm_password: str = ""
    roles: tuple[str, ...] = ()
    ldap: bool = False
    company: str = ""
    auxiliary_companies: tuple[str, ...] = field(default=())


def _length(value: str, maximum: int) -> Problem | None:
    return (TOO_LONG, {"max": maximum}) if len(value.strip()) > maximum else None


def form_problems(
    values: FormValues, *, creating: bool, password_shown: bool, staff_mail_domain: str
) -> dict[str, Problem]:
    """Every problem of the form (spec 5, User form), whether its field was touched or not."""
    found: dict[str, Problem | None] = {
        "firstname": (BLANK, {})
        if is_blank(values.firstname)
        else _length(values.firstname, NAME_MAX_LENGTH),
        "lastname": (BLANK, {})
        if is_blank(values.lastname)
        else _length(values.lastname, NAME_MAX_LENGTH),
        "email": (BLANK, {})
        if is_blank(values.email)
        else (INVALID_EMAIL, {})
        if not is_email(values.email)
        else _length(values.email, EMAIL_MAX_LENGTH),
        "phoneNumber": _length(values.phone_number, PHONE_MAX_LENGTH),
    }
    if password_shown:
        if creating and not values.password:
            found["password"] = (BLANK, {})
        if creating and not values.confirm_password:
            found["confirmPassword"] = (BLANK, {})
        elif values.confirm_password != values.password:
            found["confirmPassword"] = (CONFIRMATION_MISMATCH, {})
    if staff_domain_violation(values.roles, values.email, staff_mail_domain):
        found["roles"] = (staff_role_refusal(values.roles), {})
    return {name: problem for name, problem in found.items() if problem is not None}


def payload(values: FormValues, *, password_shown: bool) -> UserPayload:
    """The body of the create or update call: trimmed text, the password only when shown and
    typed (null otherwise: unchanged on update, spec 7)."""
    return UserPayload(
        firstname=values.firstname.strip(),
        lastname=values.lastname.strip(),
        email=values.email.strip(),
        phone_number=values.phone_number.strip() or None,
        password=values.password if password_shown and values.password else None,
        roles=list(values.roles),
        ldap=values.ldap,
        company=values.company or None,
        auxiliary_companies=list(values.auxiliary_companies),
    )


def split_violations(by_field: Mapping[str, list[str]]) -> tuple[dict[str, list[str]], list[str]]:
    """Violations under each form field, and the lines of those no field shows (spec 5)."""
    mapped: dict[str, list[str]] = {}
    unmapped: list[str] = []
    for path, messages in by_field.items():
        # ``auxiliaryCompanies[1]`` or ``company.name`` belong to their field.
        name = path.split("[", 1)[0].split(".", 1)[0]
        if name in FIELDS:
            mapped.setdefault(name, []).extend(messages)
        else:
            unmapped.extend(messages)
    return mapped, unmapped
