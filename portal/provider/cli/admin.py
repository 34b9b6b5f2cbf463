"""``create-admin``: the first administrator of a real installation."""

import getpass

from sqlmodel import Session, select

from portal.permissions import Role, staff_domain_violation
from portal.provider.accounts.passwords import hash_password
from portal.provider.cli.database import database_label, migrated_engine
from portal.provider.platform.models import Company, User
from portal.settings import get_settings
from portal.validation import NAME_MAX_LENGTH, is_email, password_weaknesses


def _enumerate(items: list[str]) -> str:
    """``["a", "b", "c"]`` → ``"a, b and c"``."""
    return " and ".join(filter(None, [", ".join(items[:-1]), items[-1]]))


def _refuse(reason: str) -> bool:
    print(f"Refused: {reason}")
    return False


def _identity_problem(email: str, firstname: str, lastname: str) -> str | None:
    if not is_email(email):
        return f"{email!r} is not a valid e-mail address."
    domain = get_settings().staff_mail_domain
    if staff_domain_violation([Role.ADMIN], email, domain):
        return (
            f"an administrator's e-mail must end with @{domain}, the staff mail domain "
            "(setting STAFF_MAIL_DOMAIN)."
        )
    for label, value in (("first name", firstname), ("last name", lastname)):
        if not value or len(value) > NAME_MAX_LENGTH:
            return f"the {label} must have 1 to {NAME_MAX_LENGTH} characters."
    return None


def _ask_password() -> str | None:
    """The password typed twice without echo; None when the two differ or input ends."""
    try:
        password = getpass.getpass("Password: ")
        repeated = getpass.getpass("Repeat the password: ")
    except EOFError:
        return None
    return password if password == repeated else None


def _staff_company(session: Session) -> Company:
    name = get_settings().staff_company_name
    company = session.exec(select(Company).where(Company.name == name)).first()
    if company is None:
        company = Company(name=name)
        session.add(company)
        session.flush()
    return company


def create_admin(email: str, firstname: str, lastname: str, password: str | None) -> bool:
    email, firstname, lastname = email.strip().lower(), firstname.strip(), lastname.strip()
    problem = _identity_problem(email, firstname, lastname)
    if problem:
        return _refuse(problem)
    engine = migrated_engine()
    with Session(engine) as session:
        if session.exec(select(User.id).where(User.email == email)).first() is not None:
            return _refuse(f"a user with the e-mail {email} already exists.")
        if password is None:
            password = _ask_password()
            if password is None:
                return _refuse("the two passwords differ, or none was typed.")
        weaknesses = password_weaknesses(password)
        if weaknesses:
            return _refuse(f"the password is too weak: it needs {_enumerate(weaknesses)}.")
        company = _staff_company(session)
        session.add(
            User(
                firstname=firstname,
                lastname=lastname,
                email=email,
                company_id=company.id,
                roles=[Role.ADMIN.value],
                has_accepted_terms=False,
                password_hash=hash_password(password),
            )
        )
        session.commit()
        company_name = company.name
    print(
        f"Created the administrator {email} in {company_name} ({database_label(engine)}). "
        "They accept the terms of use at their first login."
    )
    return True
