"""Integration API: companies and users, created, updated and sent again unchanged."""

import email
from pathlib import Path

import httpx
from sqlmodel import Session, select

from portal.provider.platform.db import preload
from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.models import Company, OneTimeToken, User
from tests.provider.conftest import World
from tests.provider.integration_helpers import counts, put, token_headers, violations

COMPANIES = [
    {"reference": "C-1", "name": "Northwind"},
    {"reference": "C-2", "name": "Initech", "sales": ["admin@patchbay.test"]},
]


def company(world: World, reference: str) -> Company:
    with Session(world.engine) as session:
        statement = select(Company).where(Company.reference == reference)
        return session.exec(statement.options(*preload(Company.sales))).one()


async def test_companies_are_created_updated_and_replayed(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    assert await counts(client, "companies", COMPANIES, headers) == (2, 0, 0)
    assert [user.email for user in company(world, "C-2").sales] == ["admin@patchbay.test"]
    assert await counts(client, "companies", COMPANIES, headers) == (0, 0, 2)
    renamed = [{"reference": "C-1", "name": "Northwind Traders"}, COMPANIES[1]]
    assert await counts(client, "companies", renamed, headers) == (0, 1, 1)
    assert company(world, "C-1").name == "Northwind Traders"
    # Sales left out stay; an empty list clears them.
    assert await counts(
        client, "companies", [{"reference": "C-2", "name": "Initech"}], headers
    ) == (
        0,
        0,
        1,
    )
    cleared = [{"reference": "C-2", "name": "Initech", "sales": []}]
    assert await counts(client, "companies", cleared, headers) == (0, 1, 0)
    assert company(world, "C-2").sales == []


async def test_a_companys_billing_address_and_language_are_kept_unless_given(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    address = {"street": "8 quai des Ondes", "postalCode": "69002", "city": "Lyon"}
    body = [{"reference": "C-3", "name": "Boréal", "language": "fr", **address}]
    assert await counts(client, "companies", body, headers) == (1, 0, 0)
    assert await counts(client, "companies", [{"reference": "C-3", "name": "Boréal"}], headers) == (
        0,
        0,
        1,
    )
    stored = company(world, "C-3")
    assert (stored.language, stored.street, stored.postal_code, stored.city, stored.country) == (
        "fr",
        "8 quai des Ondes",
        "69002",
        "Lyon",
        None,
    )


async def test_a_company_without_reference_is_adopted_by_name(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    body = [{"reference": "C-GLOBEX", "name": "Globex"}]
    assert await counts(client, "companies", body, headers) == (0, 1, 0)
    assert company(world, "C-GLOBEX").id == world.companies["globex"]


async def test_company_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    await counts(client, "companies", [{"reference": "C-10", "name": "Taken Name"}], headers)
    body = [
        {"reference": "C-11", "name": "Fine"},
        {"reference": "C-12", "name": "Taken Name"},
        {"reference": "C-11", "name": "Fine again"},
        {"reference": "C-13", "name": "With sales", "sales": ["nobody@patchbay.test"]},
        {"reference": "", "name": "x", "extra": 1},
    ]
    assert violations(await put(client, "companies", body, headers)) == [
        "[1].name",
        "[2].reference",
        "[3].sales[0]",
        "[4].extra",
        "[4].reference",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(Company).where(Company.reference == "C-11")).first() is None


USERS = [
    {
        "reference": "U-1",
        "email": "Dana.Scully@Northwind.test",
        "firstname": "Dana",
        "lastname": "Scully",
        "company": "C-1",
        "auxiliaryCompanies": ["C-2"],
        "roles": ["ROLE_MANAGE_USERS"],
        "phoneNumber": "+33 1 00 00 00 01",
        "job": "ceo",
        "manager": "fox.mulder@northwind.test",
        "language": "fr",
    },
    {
        "reference": "U-2",
        "email": "fox.mulder@northwind.test",
        "firstname": "Fox",
        "lastname": "Mulder",
        "company": "C-1",
        "assistants": ["dana.scully@northwind.test"],
    },
    {
        "reference": "U-3",
        "email": "walter.skinner@northwind.test",
        "firstname": "Walter",
        "lastname": "Skinner",
        "company": "C-1",
        "ldap": True,
    },
]


def mail_files(directory: Path) -> set[Path]:
    return set(directory.glob("*.eml"))


def recipients(paths: set[Path]) -> list[str]:
    return sorted(email.message_from_bytes(path.read_bytes())["To"] for path in paths)


def user(world: World, reference: str) -> User:
    with Session(world.engine) as session:
        statement = select(User).where(User.reference == reference)
        options = preload(User.auxiliary_companies, User.assistants)
        return session.exec(statement.options(*options)).one()


async def test_users_are_created_with_a_confirmation_mail_updated_and_replayed(
    client: httpx.AsyncClient, world: World, mail_dir: Path
) -> None:
    headers = token_headers(world)
    await counts(client, "companies", COMPANIES, headers)
    before = mail_files(mail_dir)
    assert await counts(client, "users", USERS, headers) == (3, 0, 0)
    dana, fox = user(world, "U-1"), user(world, "U-2")
    assert dana.email == "dana.scully@northwind.test"
    assert dana.roles == ["ROLE_MANAGE_USERS"]
    assert [c.name for c in dana.auxiliary_companies] == ["Initech"]
    assert dana.manager_id == fox.id
    assert [a.id for a in fox.assistants] == [dana.id]
    assert dana.password_hash is None
    assert dana.language == "fr"

    # Dana and Fox get a confirmation mail; Walter (LDAP) none.
    wait_for_deliveries()
    assert recipients(mail_files(mail_dir) - before) == [
        "Dana Scully <dana.scully@northwind.test>",
        "Fox Mulder <fox.mulder@northwind.test>",
    ]
    with Session(world.engine) as session:
        tokens = session.exec(select(OneTimeToken).where(OneTimeToken.user_id == dana.id)).all()
    assert len(tokens) == 1

    assert await counts(client, "users", USERS, headers) == (0, 0, 3)
    changed = [{**USERS[0], "lastname": "Scully-Mulder", "roles": []}, *USERS[1:]]
    assert await counts(client, "users", changed, headers) == (0, 1, 2)
    assert user(world, "U-1").lastname == "Scully-Mulder"
    assert user(world, "U-1").roles == []
    # A replay sends no new mail.
    wait_for_deliveries()
    assert len(mail_files(mail_dir) - before) == 2


async def test_user_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    await counts(client, "companies", COMPANIES, headers)
    base = {"firstname": "A", "lastname": "B", "company": "C-1"}
    body = [
        {**base, "reference": "U-10", "email": "ok@northwind.test"},
        {**base, "reference": "U-11", "email": "not-an-email"},
        {**base, "reference": "U-12", "email": "x@northwind.test", "company": "C-404"},
        {**base, "reference": "U-13", "email": "boss@northwind.test", "roles": ["ROLE_ADMIN"]},
        {**base, "reference": "U-14", "email": "alice@acme-networks.test"},
        {**base, "reference": "U-15", "email": "y@northwind.test", "roles": ["ROLE_KING"]},
        {**base, "reference": "U-16", "email": "z@northwind.test", "manager": "ghost@x.test"},
    ]
    assert violations(await put(client, "users", body, headers)) == [
        "[1].email",
        "[2].company",
        "[3].roles",
        "[5].roles[0]",
        "[6].manager",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(User).where(User.reference == "U-10")).first() is None


async def test_a_users_batch_makes_changes_or_adopts_no_staff_account(
    client: httpx.AsyncClient, world: World
) -> None:
    """Issue 47, item 12: a token made administrators and staff of any e-mail."""
    headers = token_headers(world)
    await counts(client, "companies", COMPANIES, headers)
    with Session(world.engine) as session:
        support = session.get_one(User, world.users["support"])
        support.reference = "U-STAFF"
        session.add(support)
        session.commit()
    base = {"firstname": "Mallory", "lastname": "Outside", "company": "C-1"}
    body = [
        {**base, "reference": "U-20", "email": "m0@northwind.test", "roles": ["ROLE_ADMIN"]},
        {**base, "reference": "U-21", "email": "m1@northwind.test", "roles": ["ROLE_SPH_SALES"]},
        {
            **base,
            "reference": "U-22",
            "email": "m2@northwind.test",
            "roles": ["ROLE_SPH_READ_ONLY"],
        },
        {
            **base,
            "reference": "U-23",
            "email": "m3@northwind.test",
            "roles": ["ROLE_ACCESS_INVOICES", "ROLE_SPH_MANAGE_USERS"],
        },
        {**base, "reference": "U-24", "email": "mallory@patchbay.test"},
        {**base, "reference": "U-25", "email": "admin@patchbay.test"},  # adopting the admin
        {**base, "reference": "U-STAFF", "email": "m6@northwind.test"},  # a staff member's
        {**base, "reference": "U-27", "email": "m7@northwind.test", "password": "Mallory-2027!"},
        {**base, "reference": "U-28", "email": "m8@northwind.test", "secondFactor": None},
        {**base, "reference": "U-29", "email": "m9@northwind.test", "nickname": "M"},
    ]
    response = await put(client, "users", body, headers)
    assert violations(response) == [
        "[0].roles",
        "[1].roles",
        "[2].roles",
        "[3].roles",
        "[4].email",
        "[5].email",
        "[6].reference",
        "[7].password",
        "[8].secondFactor",
        "[9].nickname",
    ]
    messages = [violation["message"] for violation in response.json()["violations"]]
    staff_role = (
        "Staff roles are not given through the integration API: an administrator gives them in "
        "the portal."
    )
    staff_account = "This is a staff account, which the integration API does not change."
    credentials = (
        "Passwords and second factors never go through the integration API: each user sets "
        "their own."
    )
    assert messages == [
        *[staff_role] * 4,
        "Addresses ending in @patchbay.test are staff accounts, which the integration API "
        "neither makes nor changes.",
        staff_account,
        staff_account,
        credentials,
        credentials,
        "No such field: the API reference lists the fields of each kind.",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(User).where(User.firstname == "Mallory")).first() is None
        assert session.get_one(User, world.users["admin"]).reference is None
        assert session.get_one(User, world.users["support"]).lastname == "Moreau"


async def test_a_user_without_reference_is_adopted_by_email(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    body = [
        {
            "reference": "U-CLAIRE",
            "email": "claire@example.test",
            "firstname": "Claire",
            "lastname": "Test",
            "company": "C-GLOBEX",
        }
    ]
    await counts(client, "companies", [{"reference": "C-GLOBEX", "name": "Globex"}], headers)
    assert await counts(client, "users", body, headers) == (0, 1, 0)
    assert user(world, "U-CLAIRE").id == world.users["claire"]
