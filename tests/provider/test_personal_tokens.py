"""Personal API tokens (issue 51): a user who may make them (``CREATE_API_TOKENS``, customers'
user managers) makes their own, for scopes they may read themselves and an expiry within a year;
shown once, stored hashed, listed and revoked by their owner alone."""

import hashlib
import uuid
from datetime import timedelta

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from portal.permissions import Role
from portal.provider.platform.api_tokens import READ_SCOPES
from portal.provider.platform.models import (
    ApiToken,
    ApiTokenKind,
    utcnow,
)
from tests.provider.conftest import SignIn, World

TOKENS = "/api/personal_tokens"
NINA_ROLES = (Role.MANAGE_USERS, Role.ACCESS_INVOICES, Role.ACCESS_MONITORING)


@pytest.fixture(scope="module")
def nina(world: World) -> None:
    world.add_user("nina", "acme", roles=NINA_ROLES, auxiliary=("benelux",), firstname="Nina")


def in_days(days: int) -> str:
    return (utcnow() + timedelta(days=days)).isoformat()


async def create(
    client: httpx.AsyncClient, scopes: tuple[str, ...] = tuple(READ_SCOPES), days: int = 30
) -> dict:
    body = {"name": "NOC", "scopes": list(scopes), "expiresAt": in_days(days)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def stored(engine: sa.Engine, token_id: str) -> ApiToken:
    with Session(engine) as session:
        return session.exec(select(ApiToken).where(ApiToken.id == uuid.UUID(token_id))).one()


async def test_a_token_is_shown_once_stored_hashed_and_listed_by_its_owner_only(
    client: httpx.AsyncClient, world: World, nina: None, sign_in: SignIn
) -> None:
    await sign_in("nina")
    created = await create(client, ("services",), days=365)
    value = created["token"]
    assert value.startswith("pbt_")
    assert created["scopes"] == ["services"]
    assert created["state"] == "active"
    assert created["lastUsedAt"] is None
    row = stored(world.engine, created["id"])
    assert row.kind == ApiTokenKind.PERSONAL
    assert row.token_hash == hashlib.sha256(value.encode()).hexdigest()

    listed = (await client.get(TOKENS)).json()["hydra:member"]
    assert [member["id"] for member in listed] == [created["id"]]
    assert {"createdAt", "lastUsedAt", "expiresAt"} <= set(listed[0])
    assert "token" not in listed[0]

    await sign_in("alice")
    assert (await client.get(TOKENS)).json()["hydra:member"] == []
    assert (await client.delete(f"{TOKENS}/{created['id']}")).status_code == 404
    await sign_in("admin")
    # Not an integration token: the administrators' list and revocation do not reach it.
    integration = (await client.get("/api/tokens")).json()["hydra:member"]
    assert created["id"] not in [member["id"] for member in integration]
    assert (await client.delete(f"/api/tokens/{created['id']}")).status_code == 404
    assert stored(world.engine, created["id"]).revoked_at is None


@pytest.mark.parametrize("who", ["bob", "admin", "support"])
async def test_only_a_customer_user_manager_makes_a_token(
    who: str, client: httpx.AsyncClient, world: World, nina: None, sign_in: SignIn
) -> None:
    await sign_in(who)
    body = {"name": "x", "scopes": ["services"], "expiresAt": in_days(1)}
    assert (await client.post(TOKENS, json=body)).status_code == 403


async def test_no_token_is_made_while_impersonated(
    client: httpx.AsyncClient, world: World, nina: None
) -> None:
    from tests.provider.accounts import impersonating

    impersonating(client, world, "admin", "nina")
    body = {"name": "x", "scopes": ["services"], "expiresAt": in_days(1)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 403
    assert "impersonating" in response.json()["detail"]


@pytest.mark.parametrize(
    ("scopes", "days", "paths"),
    [
        (["services", "everything"], 1, ["scopes[1]"]),
        (["services", "services"], 1, ["scopes[1]"]),
        (["services"], 366, ["expiresAt"]),
        (["services"], -1, ["expiresAt"]),
    ],
)
async def test_a_bad_token_body_is_a_422_naming_the_field(
    scopes: list[str],
    days: int,
    paths: list[str],
    client: httpx.AsyncClient,
    world: World,
    nina: None,
    sign_in: SignIn,
) -> None:
    await sign_in("nina")
    body = {"name": "x", "scopes": scopes, "expiresAt": in_days(days)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 422, response.text
    assert [v["propertyPath"] for v in response.json()["violations"]] == paths


async def test_an_expiry_is_required_and_a_scope_beyond_ones_rights_refused(
    client: httpx.AsyncClient, world: World, nina: None, sign_in: SignIn
) -> None:
    await sign_in("claire")  # a user manager without invoices nor monitoring
    response = await client.post(TOKENS, json={"name": "x", "scopes": ["services"]})
    assert response.status_code == 422
    body = {"name": "x", "scopes": ["services", "invoices", "monitoring"], "expiresAt": in_days(1)}
    response = await client.post(TOKENS, json=body)
    assert response.status_code == 422
    paths = [v["propertyPath"] for v in response.json()["violations"]]
    assert paths == ["scopes[1]", "scopes[2]"]
