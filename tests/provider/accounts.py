"""Helpers of the account tests: the extra staff of the world, bodies, sessions set up by hand."""

import uuid
from typing import Any

import httpx
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.platform.models import ProviderSession
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from tests.provider.conftest import World

MERGE_PATCH = {"Content-Type": "application/merge-patch+json"}


def add_staff(world: World) -> None:
    """Sales and a provider user manager, once per module (the world fixture has the rest)."""
    if "sales" in world.users:
        return
    world.add_user("sales", "staff", roles=(Role.SPH_SALES,), email="sales@patchbay.test")
    world.add_user(
        "usermanager", "staff", roles=(Role.SPH_MANAGE_USERS,), email="usermanager@patchbay.test"
    )


def new_user(world: World, in_company: str = "acme", /, **fields: Any) -> dict[str, Any]:
    """A valid creation body for a user of ``in_company`` (a key of the world)."""
    body: dict[str, Any] = {
        "firstname": "Nina",
        "lastname": "Novak",
        "email": f"nina.{uuid.uuid4().hex[:8]}@example.test",
        "phoneNumber": "+33 1 23 45 67 89",
        "password": None,
        "roles": [],
        "ldap": False,
        "company": str(world.companies[in_company]),
        "auxiliaryCompanies": [],
    }
    body.update(fields)
    return body


def impersonating(client: httpx.AsyncClient, world: World, impersonator: str, user: str) -> None:
    """Give ``client`` a session of ``user`` impersonated by ``impersonator``, as the
    impersonation route opens it."""
    token = uuid.uuid4().hex + uuid.uuid4().hex
    with Session(world.engine) as session:
        session.add(
            ProviderSession(
                id=token_hash(token),
                user_id=world.users[user],
                impersonator_id=world.users[impersonator],
            )
        )
        session.commit()
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, token)


def violations(response: httpx.Response) -> dict[str, list[str]]:
    assert response.status_code == 422, response.text
    found: dict[str, list[str]] = {}
    for violation in response.json()["violations"]:
        found.setdefault(violation["propertyPath"], []).append(violation["message"])
    return found
