"""Checking a user create or update against every rule of spec sections 5 and 6 and issue 4.

``check_write`` merges the body into the user's current values (merge patch) and answers 422 with
one violation per field on the JSON field names; it never writes. The rules that depend only on
roles and companies live in ``portal.permissions``, where the portal's user form reads them too.
"""

import uuid
from dataclasses import dataclass, field, fields, replace

from pydantic.alias_generators import to_camel
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.permissions import (
    MANAGE_USER_LDAP,
    MANAGE_USERS,
    VIEW_STAFF_COMPANIES,
    fields_refused_for_self,
    is_staff_company,
    password_fields_shown,
    staff_domain_violation,
    ungrantable_roles,
    unknown_roles,
)
from portal.provider.accounts.schemas.users import UserWrite
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.models import Company, User
from portal.provider.platform.security import Principal
from portal.settings import get_settings
from portal.validation import (
    BLANK,
    INVALID_EMAIL,
    WEAK_PASSWORD,
    is_blank,
    is_email,
    is_strong_password,
    staff_role_refusal,
)

INVALID_DATA = N_("The data sent is not valid.")
EMAIL_TAKEN = N_("Another user already has this e-mail.")
NOT_ALLOWED = N_("You are not allowed to change this value.")
UNKNOWN_ROLES = N_("Unknown roles: {roles}.")
UNGRANTABLE_ROLES = N_("You are not allowed to give or remove these roles: {roles}.")
UNAVAILABLE_COMPANY = N_("This company does not exist or you cannot choose it.")


@dataclass
class UserValues:
    """The writable fields of a user; the defaults are those of a new user."""

    firstname: str = ""
    lastname: str = ""
    email: str = ""
    phone_number: str | None = None
    roles: list[str] = field(default_factory=list)
    ldap: bool = False
    company: uuid.UUID | None = None
    auxiliary_companies: list[uuid.UUID] = field(default_factory=list)

    @classmethod
    def of(cls, user: User) -> "UserValues":
        return cls(
            firstname=user.firstname,
            lastname=user.lastname,
            email=user.email,
            phone_number=user.phone_number,
            roles=list(user.roles),
            ldap=user.ldap,
            company=user.company_id,
            auxiliary_companies=[company.id for company in user.auxiliary_companies],
        )

    def changed_from(self, other: "UserValues") -> set[str]:
        return {
            name.name
            for name in fields(self)
            if _comparable(getattr(self, name.name)) != _comparable(getattr(other, name.name))
        }


def _comparable(value: object) -> object:
    # Roles and companies are sets: their order on the form means nothing.
    return frozenset(value) if isinstance(value, list) else value


@dataclass(frozen=True)
class CheckedWrite:
    values: UserValues
    password: str | None
    changed: frozenset[str]


def path(name: str) -> str:
    return to_camel(name) if "_" in name else name


def company_id(reference: str) -> uuid.UUID | None:
    """A company's uuid from its bare uuid or its IRI (``/api/companies/{uuid}``)."""
    text = reference.strip().rstrip("/")
    collection, _, last = text.rpartition("/")
    if collection and not collection.endswith("/companies"):
        return None
    try:
        return uuid.UUID(last)
    except ValueError:
        return None


class _Checker:
    def __init__(self, db: Session, principal: Principal, target: User | None) -> None:
        self.db = db
        self.principal = principal
        self.target = target
        self.violations: list[Violation] = []

    def refuse(self, name: str, message: str, **params: object) -> None:
        self.violations.append(Violation(path(name), message, dict(params)))

    def text(self, body: UserWrite, values: UserValues, name: str, required: bool) -> None:
        raw = (getattr(body, name) or "").strip()
        if required and is_blank(raw):
            self.refuse(name, BLANK)
        setattr(values, name, raw if required else raw or None)

    def email(self, raw: str | None) -> str:
        email = (raw or "").strip().lower()
        if is_blank(email):
            self.refuse("email", BLANK)
        elif not is_email(email):
            self.refuse("email", INVALID_EMAIL)
        else:
            others = select(User.id).where(User.email == email)
            if self.target is not None:
                others = others.where(col(User.id) != self.target.id)
            if self.db.exec(others).first() is not None:
                self.refuse("email", EMAIL_TAKEN)
        return email

    def companies(
        self, name: str, references: list[str], current: list[uuid.UUID]
    ) -> list[uuid.UUID]:
        """The companies' ids; a new one must exist and be within the actor's reach."""
        ids: list[uuid.UUID] = []
        for reference in references:
            found = company_id(reference)
            if found is None:
                self.refuse(name, N_("This value is not a valid identifier."))
                continue
            if found not in current and not self.may_choose(found):
                self.refuse(name, UNAVAILABLE_COMPANY)
                continue
            if found not in ids:
                ids.append(found)
        return ids

    def may_choose(self, company: uuid.UUID) -> bool:
        row = self.db.get(Company, company)
        if row is None:
            return False
        if not self.principal.is_staff and company not in self.principal.company_ids:
            return False
        staff_company = is_staff_company(row.name, get_settings().staff_company_name)
        return not staff_company or self.principal.allows(VIEW_STAFF_COMPANIES)


def check_write(
    db: Session, principal: Principal, body: UserWrite, target: User | None
) -> CheckedWrite:
    """The user's values once ``body`` is applied, or 422 with every violation."""
    creating = target is None
    current = UserValues() if target is None else UserValues.of(target)
    given = body.model_fields_set | (
        {"firstname", "lastname", "email", "company"} if creating else set()
    )
    checker = _Checker(db, principal, target)
    values = replace(current)
    for name in ("firstname", "lastname"):
        if name in given:
            checker.text(body, values, name, required=True)
    if "phone_number" in given:
        checker.text(body, values, "phone_number", required=False)
    if "email" in given:
        values.email = checker.email(body.email)
    if "roles" in given:
        values.roles = list(dict.fromkeys(body.roles or []))
    if "ldap" in given and body.ldap is not None:
        values.ldap = body.ldap
    if "company" in given:
        if is_blank(body.company):
            checker.refuse("company", BLANK)
        else:
            reference = [body.company or ""]
            current_main = [current.company] if current.company else []
            chosen = checker.companies("company", reference, current_main)
            values.company = chosen[0] if chosen else current.company
    if "auxiliary_companies" in given:
        chosen = checker.companies(
            "auxiliary_companies", body.auxiliary_companies or [], current.auxiliary_companies
        )
        values.auxiliary_companies = [company for company in chosen if company != values.company]

    password = body.password or None
    changed = values.changed_from(current) | ({"password"} if password else set())
    _check_permissions(checker, values, current, changed, password, creating=creating)
    if checker.violations:
        raise ApiError(422, INVALID_DATA, violations=checker.violations)
    return CheckedWrite(values, password, frozenset(changed))


def _check_permissions(
    checker: _Checker,
    values: UserValues,
    current: UserValues,
    changed: set[str],
    password: str | None,
    *,
    creating: bool,
) -> None:
    principal = checker.principal
    actor_roles = principal.user.roles
    editing_self = checker.target is not None and checker.target.id == principal.user.id
    refused: set[str] = set()
    if editing_self:
        refused = set(
            fields_refused_for_self(changed, manages_users=principal.allows(MANAGE_USERS))
        )
    if "ldap" in changed and not principal.allows(MANAGE_USER_LDAP):
        refused.add("ldap")
    if password and not password_fields_shown(
        actor_roles, creating=creating, editing_self=editing_self
    ):
        refused.add("password")
    for name in sorted(refused):
        checker.refuse(name, NOT_ALLOWED)

    if "roles" in changed and "roles" not in refused:
        if unknown := unknown_roles(values.roles):
            checker.refuse("roles", UNKNOWN_ROLES, roles=", ".join(unknown))
        elif ungrantable := ungrantable_roles(
            principal.rules, actor_roles, current.roles, values.roles
        ):
            checker.refuse("roles", UNGRANTABLE_ROLES, roles=", ".join(ungrantable))
    if changed & {"roles", "email"} and staff_domain_violation(
        values.roles, values.email, get_settings().staff_mail_domain
    ):
        checker.refuse("roles", staff_role_refusal(values.roles))
    if password and "password" not in refused and not is_strong_password(password):
        checker.refuse("password", WEAK_PASSWORD)
