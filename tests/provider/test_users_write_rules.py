"""What may be written on a user (spec 5 and 6, issue 4): required fields and lengths, unique
e-mail, role grants, admin roles only for staff e-mails, companies within reach, LDAP for admins,
passwords only when creating or editing oneself, locked fields on one's own profile."""

import uuid
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.platform.models import User
from tests.provider.accounts import MERGE_PATCH, add_staff, new_user, violations
from tests.provider.conftest import PASSWORD, SignIn, World
from tests.provider.mailbox import eml_messages, empty, link_token

BLANK = "This value should not be blank."
NOT_ALLOWED = "You are not allowed to change this value."
ADMIN_ERROR = "Unable to assign an Administrator role to an external user"
STAFF_ERROR = "Unable to assign a staff role to an external user"
UNAVAILABLE = "This company does not exist or you cannot choose it."


@pytest.fixture(autouse=True)
def staff(world: World, mail_dir: Path) -> None:
    add_staff(world)
    empty(mail_dir)


async def _create(client: httpx.AsyncClient, body: dict[str, object]) -> httpx.Response:
    return await client.post("/api/users", json=body)


async def _patch(
    client: httpx.AsyncClient, world: World, key: str, body: dict[str, object]
) -> httpx.Response:
    return await client.patch(f"/api/users/{world.users[key]}", json=body, headers=MERGE_PATCH)


def _user(world: World, user_id: str | uuid.UUID) -> User:
    with Session(world.engine) as session:
        user = session.get_one(User, uuid.UUID(str(user_id)))
        _ = user.auxiliary_companies
        return user


# --- fields -----------------------------------------------------------------------------------


async def test_required_fields(client: httpx.AsyncClient, world: World, sign_in: SignIn) -> None:
    await sign_in("admin")
    found = violations(await _create(client, {}))
    assert found == {name: [BLANK] for name in ("firstname", "lastname", "email", "company")}
    blank = new_user(world, firstname="  ", lastname="", email="", company="")
    assert set(violations(await _create(client, blank))) == {
        "firstname",
        "lastname",
        "email",
        "company",
    }


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("firstname", "x" * 101, "This value must be 100 characters or less."),
        ("lastname", "x" * 101, "This value must be 100 characters or less."),
        ("email", "x" * 250 + "@a.fr", "This value must be 254 characters or less."),
        ("phoneNumber", "1" * 51, "This value must be 50 characters or less."),
        ("email", "not-an-email", "Invalid email"),
        ("company", "not-a-uuid", "This value is not a valid identifier."),
        ("company", "5d0c2b7e-91a4-4f3e-8b6d-0e7f1a2c3d4e", UNAVAILABLE),
        ("roles", ["ROLE_SUPERUSER"], "Unknown roles: ROLE_SUPERUSER."),
        ("roles", "ROLE_ADMIN", "This value should be a list."),
        ("ldap", "maybe", "This value should be true or false."),
        (
            "auxiliaryCompanies",
            ["/api/services/5d0c2b7e-91a4-4f3e-8b6d-0e7f1a2c3d4f"],
            "This value is not a valid identifier.",
        ),
    ],
)
async def test_each_field_is_validated(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    field: str,
    value: object,
    message: str,
) -> None:
    await sign_in("admin")
    found = violations(await _create(client, new_user(world, **{field: value})))
    assert found == {field: [message]}


async def test_the_email_is_unique_whatever_its_case(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    taken = new_user(world, email="  BOB@example.TEST ")
    assert violations(await _create(client, taken)) == {
        "email": ["Another user already has this e-mail."]
    }
    assert violations(await _patch(client, world, "helene", {"email": "bob@example.test"})) == {
        "email": ["Another user already has this e-mail."]
    }
    # Keeping one's own address is no clash.
    assert (await _patch(client, world, "bob", {"email": "bob@example.test"})).status_code == 200


@pytest.mark.parametrize(("language", "blank"), [("fr", "Cette valeur ne doit pas être vide.")])
async def test_violations_are_translated(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, language: str, blank: str
) -> None:
    await sign_in("admin")
    response = await client.post(
        "/api/users", json=new_user(world, firstname=""), headers={"Accept-Language": language}
    )
    assert violations(response) == {"firstname": [blank]}


# --- creation ---------------------------------------------------------------------------------


async def test_creation_answers_201_and_mails_the_confirmation_link_in_the_creators_language(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, mail_dir: Path
) -> None:
    await sign_in("alice")
    body = new_user(
        world,
        email="New.Person@Acme-Networks.test",
        roles=[Role.ACCESS_INVOICES.value],
        auxiliaryCompanies=[f"/api/companies/{world.companies['benelux']}"],
    )
    response = await client.post(
        "/api/users",
        json=body,
        params={"includes[]": "company"},
        headers={"Accept-Language": "fr-FR"},
    )
    assert response.status_code == 201, response.text
    created = response.json()
    assert response.headers["Location"] == created["@id"] == f"/api/users/{created['id']}"
    assert created["email"] == "new.person@acme-networks.test"
    assert created["company"]["name"] == "Acme Networks"
    assert [company["name"] for company in created["auxiliaryCompanies"]] == [
        "Acme Networks Benelux"
    ]
    assert created["roles"] == [Role.ACCESS_INVOICES.value]
    assert created["hasAcceptedTerms"] is False
    [message] = eml_messages(mail_dir, "new.person@acme-networks.test")
    assert message["Subject"] == "Votre compte sur le portail client Patchbay"
    token = link_token(message, "/confirm-account")
    assert (
        await client.post(f"/reset/{token}", json={"password": "First-Pass-2026"})
    ).status_code == 204
    user = _user(world, created["id"])
    assert user.language == "fr"
    assert user.password_hash is not None


async def test_a_password_given_at_creation_works_at_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    body = new_user(world, password="Chosen-Pass-2026")
    assert (await _create(client, body)).status_code == 201
    client.cookies.clear()
    login = {"username": body["email"], "password": "Chosen-Pass-2026"}
    assert (await client.post("/login", json=login)).status_code == 204


async def test_a_weak_password_is_refused(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    assert violations(await _create(client, new_user(world, password="weakpass"))) == {
        "password": [
            "The password must have at least 10 characters, including one number and one "
            "uppercase letter."
        ]
    }


# --- roles ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "roles", "allowed"),
    [
        ("admin", [Role.SPH_SALES], True),
        ("usermanager", [Role.REFERENCE_MASTER, Role.MANAGE_USERS], True),
        ("usermanager", [Role.SPH_SALES], False),  # staff roles are the admin's to give
        ("usermanager", [Role.SPH_READ_ONLY], False),
        ("alice", [Role.ACCESS_INVOICES, Role.MANAGE_USERS], True),  # her own roles
        ("alice", [Role.REFERENCE_MASTER], False),  # not hers
        ("alice", [Role.SPH_READ_ONLY], False),
    ],
)
async def test_roles_are_limited_to_what_the_actor_may_give(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    roles: list[str],
    allowed: bool,
) -> None:
    await sign_in(actor)
    # An e-mail of the staff domain, which every staff role needs: only the grant is tested.
    email = f"new.{uuid.uuid4().hex[:8]}@patchbay.test"
    response = await _create(client, new_user(world, roles=roles, email=email))
    if allowed:
        assert response.status_code == 201, response.text
    else:
        [message] = violations(response)["roles"]
        assert message.startswith("You are not allowed to give or remove these roles:")


async def test_a_customer_manager_keeps_or_removes_roles_already_on_the_user(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    # Bob holds ROLE_ACCESS_MONITORING, which Alice does not: on the form it is hers to keep or
    # to drop, not to give back.
    await sign_in("alice")
    kept = await _patch(
        client, world, "bob", {"roles": [Role.ACCESS_MONITORING, Role.ACCESS_INVOICES]}
    )
    assert kept.status_code == 200, kept.text
    dropped = await _patch(client, world, "bob", {"roles": []})
    assert dropped.status_code == 200
    back = await _patch(client, world, "bob", {"roles": [Role.ACCESS_MONITORING]})
    assert violations(back)["roles"]


@pytest.mark.parametrize(
    ("role", "refusal"),
    [
        (Role.ADMIN, ADMIN_ERROR),
        (Role.SPH_MANAGE_USERS, ADMIN_ERROR),
        # Issue 47, item 19: read-only and sales staff read every customer's data too.
        (Role.SPH_READ_ONLY, STAFF_ERROR),
        (Role.SPH_SALES, STAFF_ERROR),
    ],
)
async def test_staff_roles_only_for_staff_emails(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, role: str, refusal: str
) -> None:
    await sign_in("admin")
    external = await _create(client, new_user(world, "staff", roles=[role]))
    assert violations(external) == {"roles": [refusal]}
    staff_email = f"new-{role.lower()}@patchbay.test"
    inside = await _create(client, new_user(world, "staff", roles=[role], email=staff_email))
    assert inside.status_code == 201, inside.text
    moved_out = await client.patch(
        f"/api/users/{inside.json()['id']}",
        json={"email": staff_email.replace("patchbay.test", "example.test")},
        headers=MERGE_PATCH,
    )
    assert violations(moved_out) == {"roles": [refusal]}
    outsider = await _create(client, new_user(world, "acme"))
    given = await client.patch(
        f"/api/users/{outsider.json()['id']}", json={"roles": [role]}, headers=MERGE_PATCH
    )
    assert violations(given) == {"roles": [refusal]}


# --- companies --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "field", "company", "allowed"),
    [
        ("alice", "company", "globex", False),
        ("alice", "auxiliaryCompanies", "globex", False),
        ("alice", "auxiliaryCompanies", "benelux", True),
        ("alice", "company", "staff", False),
        ("usermanager", "company", "staff", False),  # staff companies are for admins
        ("usermanager", "auxiliaryCompanies", "staff", False),
        ("usermanager", "company", "globex", True),
        ("admin", "company", "staff", True),
    ],
)
async def test_companies_within_the_actors_reach(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    field: str,
    company: str,
    allowed: bool,
) -> None:
    await sign_in(actor)
    value: object = str(world.companies[company])
    body = new_user(world, **{field: [value] if field == "auxiliaryCompanies" else value})
    response = await _create(client, body)
    if allowed:
        assert response.status_code == 201, response.text
    else:
        assert violations(response) == {field: [UNAVAILABLE]}


# --- LDAP and passwords -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "allowed"), [("admin", True), ("usermanager", False), ("alice", False)]
)
async def test_only_admins_set_the_ldap_flag(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, actor: str, allowed: bool
) -> None:
    await sign_in(actor)
    response = await _create(client, new_user(world, ldap=True))
    if allowed:
        assert response.json()["ldap"] is True
    else:
        assert violations(response) == {"ldap": [NOT_ALLOWED]}
    # The form always sends the flag: false, unchanged, is fine.
    assert (await _create(client, new_user(world, ldap=False))).status_code == 201


async def test_nobody_sets_another_users_password(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    response = await _patch(client, world, "claire", {"password": "Takeover-2026-X"})
    assert violations(response) == {"password": [NOT_ALLOWED]}
    # A null or empty password leaves it unchanged (the form sends null when the field is empty).
    assert (await _patch(client, world, "claire", {"password": None})).status_code == 200
    assert (await _patch(client, world, "claire", {"password": ""})).status_code == 200


# --- one's own profile ------------------------------------------------------------------------


async def test_the_owner_updates_their_profile_and_password(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("helene")
    current = (await client.get(f"/api/users/{world.users['helene']}")).json()
    # What the form sends: every field, the locked ones unchanged.
    body = {
        **{
            key: current[key] for key in ("email", "roles", "ldap", "company", "auxiliaryCompanies")
        },
        "firstname": "Hélène",
        "lastname": "Renamed",
        "phoneNumber": "+33 6 00 00 00 00",
        "password": "Own-New-Pass-2026",
    }
    response = await _patch(client, world, "helene", body)
    assert response.status_code == 200, response.text
    assert response.json()["lastname"] == "Renamed"
    client.cookies.clear()
    login = {"username": "helene@example.test", "password": "Own-New-Pass-2026"}
    assert (await client.post("/login", json=login)).status_code == 204


@pytest.mark.parametrize(
    ("actor", "body", "field"),
    [
        ("bob", {"email": "bob.new@example.test"}, "email"),
        ("bob", {"roles": [Role.ACCESS_MONITORING, Role.MANAGE_USERS]}, "roles"),
        ("alice", {"roles": [Role.MANAGE_USERS]}, "roles"),  # locked even for a manager
        ("alice", {"company": "benelux"}, "company"),
        ("alice", {"auxiliaryCompanies": []}, "auxiliaryCompanies"),
        ("admin", {"ldap": True}, "ldap"),
    ],
)
async def test_locked_fields_of_ones_own_profile(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    body: dict[str, object],
    field: str,
) -> None:
    if body.get("company"):
        body = {"company": str(world.companies[str(body["company"])])}
    await sign_in(actor)
    response = await _patch(client, world, actor, body)
    if actor == "admin":
        assert response.status_code == 200  # admins set the flag, on themselves too
        await _patch(client, world, actor, {"ldap": False})
    else:
        assert violations(response) == {field: [NOT_ALLOWED]}


async def test_read_only_staff_never_set_a_password(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("support")
    response = await _patch(client, world, "support", {"password": "Support-Pass-2026"})
    assert violations(response) == {"password": [NOT_ALLOWED]}
    renamed = await _patch(client, world, "support", {"firstname": "Sam"})
    assert renamed.status_code == 200


async def test_an_unchanged_password_keeps_the_login(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bram")
    assert (
        await _patch(client, world, "bram", {"password": None, "lastname": "B"})
    ).status_code == 200
    client.cookies.clear()
    login = {"username": "bram@example.test", "password": PASSWORD}
    assert (await client.post("/login", json=login)).status_code == 204
