"""Users, keyed on their reference; a stored user without a reference and of the same e-mail is
adopted. A created user receives the account confirmation e-mail (LDAP users excepted: their
directory holds the password), in the user's language.

Customers' users only: a batch never gives a staff role, never makes or changes an account of the
staff mail domain, never touches a stored staff account (an administrator makes staff in the
portal or with ``create-admin``), and carries no password or second factor
(docs/decisions/integration-api.md)."""

from typing import Any, Literal

from pydantic import Field
from sqlmodel import Session

from portal.i18n import N_
from portal.permissions import Role, is_staff, is_staff_email
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    Email,
    InputModel,
    OptionalText,
    Reference,
    Text,
    assign,
    chunks,
    duplicates,
    path,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.feed_links import end_feeds
from portal.provider.platform.mail import send_account_confirmation
from portal.provider.platform.models import Company, Job, User
from portal.settings import get_settings

EMAIL_TAKEN = N_("Another user already has this e-mail.")
STAFF_ROLE_REFUSED = N_(
    "Staff roles are not given through the integration API: an administrator gives them in "
    "the portal."
)
STAFF_EMAIL_REFUSED = N_(
    "Addresses ending in @{domain} are staff accounts, which the integration API neither makes "
    "nor changes."
)
STAFF_ACCOUNT_REFUSED = N_("This is a staff account, which the integration API does not change.")
_PRELOAD = preload(User.auxiliary_companies, User.assistants)


class UserIn(InputModel):
    reference: Reference = Field(description="The provider's own reference: the key.")
    email: Email = Field(description="The login; unique among users.")
    firstname: Text = Field(max_length=100)
    lastname: Text = Field(max_length=100)
    company: Reference = Field(description="Reference of the main company.")
    auxiliary_companies: list[Reference] | None = Field(
        default=None, description="References of further companies whose data the user sees."
    )
    roles: list[Role] | None = None
    phone_number: OptionalText = Field(default=None, max_length=50)
    job: Job | None = None
    office_phone: OptionalText = Field(default=None, max_length=50)
    mobile_phone: OptionalText = Field(default=None, max_length=50)
    manager: Email | None = Field(default=None, description="E-mail of the user's manager.")
    assistants: list[Email] | None = Field(default=None, description="E-mails of assistants.")
    ldap: bool = Field(default=False, description="Logs in through the directory.")
    active: bool = True
    language: Literal["en", "fr"] = Field(
        default="en", description="Language of the user's e-mails, the confirmation first."
    )


def _people(items: list[UserIn]) -> set[str]:
    return {email for item in items for email in [item.manager, *(item.assistants or ())] if email}


def check(db: Session, entries: Entries[UserIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    violations += duplicates(entries, lambda item: item.email, "email")
    by_reference = rows_by(db, User.reference, (item.reference for item in items), _PRELOAD)
    by_email = rows_by(db, User.email, {item.email for item in items} | _people(items), _PRELOAD)
    companies = rows_by(
        db,
        Company.reference,
        {ref for item in items for ref in [item.company, *(item.auxiliary_companies or ())]},
    )
    known_people = set(by_email) | {item.email for item in items}
    domain = get_settings().staff_mail_domain
    for index, item in entries:
        own, holder = by_reference.get(item.reference), by_email.get(item.email)
        if holder is not None and holder is not own and (own or holder.reference):
            violations.append(Violation(path(index, "email"), EMAIL_TAKEN))
        current = own or holder
        if current is not None and (
            is_staff(current.roles) or is_staff_email(current.email, domain)
        ):
            field = "reference" if current is own else "email"
            violations.append(Violation(path(index, field), STAFF_ACCOUNT_REFUSED))
        elif is_staff_email(item.email, domain):
            refused = Violation(path(index, "email"), STAFF_EMAIL_REFUSED, {"domain": domain})
            violations.append(refused)
        if is_staff(item.roles or ()):
            violations.append(Violation(path(index, "roles"), STAFF_ROLE_REFUSED))
        violations += unknown(index, "company", item.company, companies)
        for position, ref in enumerate(item.auxiliary_companies or ()):
            violations += unknown(index, f"auxiliaryCompanies[{position}]", ref, companies)
        if item.manager:
            violations += unknown(index, "manager", item.manager, known_people, email=True)
        for position, email in enumerate(item.assistants or ()):
            violations += unknown(index, f"assistants[{position}]", email, known_people, email=True)
    return (by_reference, by_email, companies), violations


def _fields(item: UserIn, companies: dict[str, Company]) -> dict[str, Any]:
    values: dict[str, Any] = {
        "reference": item.reference,
        "email": item.email,
        "firstname": item.firstname,
        "lastname": item.lastname,
        "company_id": companies[item.company].id,
    }
    optional = {
        "roles": list(dict.fromkeys(role.value for role in item.roles or ())),
        "phone_number": item.phone_number,
        "job": item.job,
        "office_phone": item.office_phone,
        "mobile_phone": item.mobile_phone,
        "ldap": item.ldap,
        "is_active": item.active,
        "language": item.language,
    }
    given = {"is_active": "active"}
    values |= {name: value for name, value in optional.items() if item.given(given.get(name, name))}
    return values


def _access(user: User) -> tuple[frozenset[str], Any, frozenset[Any]]:
    """What a user's calendar feed link shows: their roles and companies."""
    auxiliary = frozenset(company.id for company in user.auxiliary_companies)
    return frozenset(user.roles), user.company_id, auxiliary


def write(db: Session, entries: Entries[UserIn], resolved: Any) -> Counts:
    by_reference, by_email, companies = resolved
    counts = Counts()
    stored: list[tuple[UserIn, User, bool, bool]] = []
    access_changed: list[User] = []
    for _, item in entries:
        stored_user = by_reference.get(item.reference) or by_email.get(item.email)
        access_before = _access(stored_user) if stored_user is not None else None
        user, created, changed = upsert_row(User, stored_user, _fields(item, companies))
        if item.auxiliary_companies is not None:
            wanted = [companies[ref] for ref in dict.fromkeys(item.auxiliary_companies)]
            if {c.id for c in user.auxiliary_companies} != {c.id for c in wanted}:
                user.auxiliary_companies = wanted
                changed = True
        if access_before is not None and _access(user) != access_before:
            access_changed.append(user)
        db.add(user)
        by_email[user.email] = user
        stored.append((item, user, created, changed))
    db.flush()
    # Managers and assistants may be users of this same batch: linked once all exist.
    for item, user, created, changed in stored:
        if item.given("manager"):
            manager = by_email[item.manager] if item.manager else None
            changed = assign(user, {"manager_id": manager.id if manager else None}) or changed
        if item.assistants is not None:
            wanted = [by_email[email] for email in dict.fromkeys(item.assistants)]
            if {a.id for a in user.assistants} != {a.id for a in wanted}:
                user.assistants = wanted
                changed = True
        if created and not user.ldap and user.is_active:
            send_account_confirmation(db, user, user.language)
        counts.add(created, changed)
    for part in chunks(access_changed):
        end_feeds(db, part, "access")
    return counts


KIND = Kind(
    name="user",
    path="users",
    model=UserIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update users",
    description="Upsert up to 1 000 users keyed on `reference`. A created user (not LDAP) "
    "receives the account confirmation e-mail, valid 7 days, to choose a password.",
    example=[
        {
            "reference": "U-2001",
            "email": "alice.martin@acme-networks.test",
            "firstname": "Alice",
            "lastname": "Martin",
            "company": "C-1001",
            "roles": ["ROLE_MANAGE_USERS", "ROLE_ACCESS_INVOICES"],
            "phoneNumber": "+33 1 99 00 21 01",
            "language": "fr",
        }
    ],
)
