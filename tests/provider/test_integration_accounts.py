"""Integration API: companies and users, created, updated and sent again unchanged."""

import email
from pathlib import Path

import httpx
from sqlmodel import Session, select

from portal.provider.db import preload
from portal.provider.mail import wait_for_deliveries
from portal.provider.models import Company, OneTimeToken, User
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
