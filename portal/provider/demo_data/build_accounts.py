"""Companies, users, sales assignments, managers and assistants."""

from portal.provider.demo_data.context import SeedContext
from portal.provider.demo_data.people import (
    COMPANY_ADDRESSES,
    CUSTOMER_COMPANIES,
    FRENCH_SPEAKING,
    PEOPLE,
    STAFF_COMPANY,
    Person,
)
from portal.provider.platform.models import Company, User

_COMPANY_REFERENCES = {
    STAFF_COMPANY: "C-0001",
    **{name: f"C-{index:04d}" for index, name in enumerate(CUSTOMER_COMPANIES, start=1001)},
}


def build_accounts(context: SeedContext, staff_company_name: str, password_hash: str) -> None:
    """Every company and person of ``people``; every account gets the demo password."""
    for key, reference in _COMPANY_REFERENCES.items():
        name = staff_company_name if key == STAFF_COMPANY else key
        street, postal_code, city, country = COMPANY_ADDRESSES.get(key, (None, None, None, None))
        context.companies[key] = Company(
            id=context.new_id(),
            reference=reference,
            name=name,
            language="fr" if key in FRENCH_SPEAKING else "en",
            street=street,
            postal_code=postal_code,
            city=city,
            country=country,
        )
    for person in PEOPLE:
        context.users[person.email] = _user(context, person, password_hash)
    # Relationships as well as keys: users refer to companies and to each other, and the unit of
    # work orders such inserts by the related objects, not by the key columns.
    for person in PEOPLE:
        user = context.users[person.email]
        user.company = context.companies[person.company]
        user.manager = context.users[person.manager] if person.manager else None
        user.assistants = [context.users[email] for email in person.assistants]
    for company_key, company in context.companies.items():
        company.sales = [
            context.users[person.email] for person in PEOPLE if company_key in person.serves
        ]
    context.session.add_all(context.companies.values())
    context.session.add_all(context.users.values())
    context.session.flush()


def _user(context: SeedContext, person: Person, password_hash: str) -> User:
    return User(
        id=context.new_id(),
        firstname=person.firstname,
        lastname=person.lastname,
        email=person.email,
        phone_number=person.office_phone or person.mobile_phone,
        office_phone=person.office_phone,
        mobile_phone=person.mobile_phone,
        job=person.job,
        roles=[role.value for role in person.roles],
        company_id=context.companies[person.company].id,
        auxiliary_companies=[context.companies[name] for name in person.auxiliary_companies],
        has_accepted_terms=person.has_accepted_terms,
        terms_accepted_at=context.midnight if person.has_accepted_terms else None,
        password_hash=password_hash,
    )
