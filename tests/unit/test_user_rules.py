"""The user-writing rules that go beyond the permission table: role grants, whom one manages,
what one changes on one's own profile, and how a company is referred to."""

import uuid

import pytest

from portal.permissions import (
    Role,
    fields_refused_for_self,
    may_manage,
    rules_for,
    ungrantable_roles,
    unknown_roles,
)
from portal.provider.accounts.user_changes import company_id

# Fixed ids: test ids are built from them, and every xdist worker must collect the same tests.
ACME = uuid.UUID("3f6d1a52-8c1e-4b7a-9d0e-2a5c7b9e4f11")
GLOBEX = uuid.UUID("a1c4e7f0-5b2d-4e8a-b3c6-9d1f2e4a7b80")


def test_unknown_roles() -> None:
    assert unknown_roles([Role.ADMIN, "ROLE_ROOT", "x"]) == ["ROLE_ROOT", "x"]
    assert unknown_roles(list(Role)) == []


@pytest.mark.parametrize(
    ("actor", "current", "new", "refused"),
    [
        ([Role.ADMIN], [], [Role.ADMIN, Role.SPH_SALES], []),
        ([Role.SPH_MANAGE_USERS], [], [Role.MANAGE_USERS], []),
        ([Role.SPH_MANAGE_USERS], [], [Role.SPH_SALES, Role.ADMIN], [Role.ADMIN, Role.SPH_SALES]),
        # Keeping a role one cannot grant is fine; removing it is not.
        ([Role.SPH_MANAGE_USERS], [Role.SPH_SALES], [Role.SPH_SALES, Role.MANAGE_USERS], []),
        ([Role.SPH_MANAGE_USERS], [Role.SPH_SALES], [], [Role.SPH_SALES]),
        # A customer manager gives their own roles, and keeps or drops those on the form.
        ([Role.MANAGE_USERS, Role.ACCESS_INVOICES], [], [Role.ACCESS_INVOICES], []),
        ([Role.MANAGE_USERS], [], [Role.REFERENCE_MASTER], [Role.REFERENCE_MASTER]),
        ([Role.MANAGE_USERS], [Role.REFERENCE_MASTER], [], []),
    ],
)
def test_ungrantable_roles(
    actor: list[str], current: list[str], new: list[str], refused: list[str]
) -> None:
    assert ungrantable_roles(rules_for(actor), actor, current, new) == sorted(refused)


@pytest.mark.parametrize(
    ("actor", "actor_companies", "target", "target_companies", "allowed"),
    [
        ([Role.ADMIN], set(), [Role.ADMIN], {ACME}, True),
        ([Role.SPH_MANAGE_USERS], set(), [Role.MANAGE_USERS], {GLOBEX}, True),
        ([Role.SPH_MANAGE_USERS], set(), [Role.ADMIN], set(), False),
        ([Role.SPH_MANAGE_USERS], set(), [Role.SPH_READ_ONLY], set(), False),
        ([Role.MANAGE_USERS], {ACME}, [Role.ACCESS_INVOICES], {ACME}, True),
        ([Role.MANAGE_USERS], {ACME}, [], {ACME, GLOBEX}, False),
        ([Role.MANAGE_USERS], {ACME, GLOBEX}, [], {GLOBEX}, True),
        ([Role.ACCESS_INVOICES], {ACME}, [], {ACME}, False),
        ([Role.SPH_SALES], set(), [], {ACME}, False),
        ([Role.SPH_READ_ONLY], set(), [], {ACME}, False),
    ],
)
def test_may_manage(
    actor: list[str],
    actor_companies: set[uuid.UUID],
    target: list[str],
    target_companies: set[uuid.UUID],
    allowed: bool,
) -> None:
    assert may_manage(rules_for(actor), actor, actor_companies, target, target_companies) is allowed


@pytest.mark.parametrize(
    ("changed", "manages", "refused"),
    [
        ({"firstname", "lastname", "phone_number", "password"}, False, []),
        ({"email", "firstname"}, False, ["email"]),
        ({"email"}, True, []),
        (
            {"roles", "company", "auxiliary_companies", "ldap"},
            True,
            ["auxiliary_companies", "company", "roles"],
        ),
        ({"roles", "ldap"}, False, ["ldap", "roles"]),
    ],
)
def test_fields_refused_for_self(changed: set[str], manages: bool, refused: list[str]) -> None:
    assert fields_refused_for_self(changed, manages_users=manages) == refused


@pytest.mark.parametrize(
    ("reference", "found"),
    [
        (str(ACME), ACME),
        (f"/api/companies/{ACME}", ACME),
        (f"/provider/api/companies/{ACME}/", ACME),
        (f"  {ACME.hex}  ", ACME),
        (f"/api/users/{ACME}", None),
        ("Acme Networks", None),
        ("", None),
    ],
)
def test_company_references(reference: str, found: uuid.UUID | None) -> None:
    assert company_id(reference) == found
