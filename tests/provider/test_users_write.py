"""Who may create, update and delete which user (spec 6 and 7, issue 4): 401 without a session,
403 for every role that may not, 404 for users of another company, 403 while sales impersonate."""

import uuid

import httpx
import pytest
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform.models import AuditLog, ProviderSession, User
from portal.provider.platform.sessions import COOKIE_NAME
from tests.provider.accounts import MERGE_PATCH, add_staff, impersonating, new_user
from tests.provider.conftest import SignIn, World


@pytest.fixture(autouse=True)
def staff(world: World) -> None:
    add_staff(world)


def _mixed(world: World) -> None:
    """A Globex user who also works for Acme: Alice sees them, but may not manage them."""
    if "mixed" not in world.users:
        world.add_user("mixed", "globex", roles=(Role.ACCESS_MONITORING,), auxiliary=("acme",))


# --- without a session ------------------------------------------------------------------------


async def test_every_write_needs_a_session(client: httpx.AsyncClient, world: World) -> None:
    bob = world.users["bob"]
    assert (await client.post("/api/users", json=new_user(world))).status_code == 401
    patch = await client.patch(f"/api/users/{bob}", json={"firstname": "X"}, headers=MERGE_PATCH)
    assert patch.status_code == 401
    assert (await client.delete(f"/api/users/{bob}")).status_code == 401


# --- create -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "company", "status"),
    [
        ("admin", "acme", 201),
        ("usermanager", "globex", 201),
        ("alice", "acme", 201),
        ("alice", "benelux", 201),  # one of her auxiliary companies
        ("claire", "globex", 201),
        ("bob", "acme", 403),  # no manage User
        ("support", "acme", 403),  # read-only staff
        ("sales", "acme", 403),
        ("newbie", "acme", 403),  # terms not accepted
    ],
)
async def test_who_may_create_a_user(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    company: str,
    status: int,
) -> None:
    await sign_in(actor)
    response = await client.post("/api/users", json=new_user(world, company))
    assert response.status_code == status, response.text


# --- update and delete ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "target", "status"),
    [
        ("admin", "claire", 200),
        ("admin", "usermanager", 200),
        ("usermanager", "bob", 200),
        ("usermanager", "claire", 200),
        ("usermanager", "admin", 403),  # holds a role the user manager cannot give
        ("usermanager", "sales", 403),
        ("alice", "bob", 200),
        ("alice", "bram", 200),  # Benelux is one of Alice's companies
        ("alice", "mixed", 403),  # visible through Acme, but also in Globex
        ("alice", "claire", 404),  # another company: not found
        ("alice", "admin", 404),
        ("claire", "bob", 404),
        ("bob", "helene", 403),  # same company, no manage User
        ("support", "bob", 403),
        ("sales", "bob", 403),
    ],
)
async def test_who_may_update_a_user(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    target: str,
    status: int,
) -> None:
    _mixed(world)
    await sign_in(actor)
    response = await client.patch(
        f"/api/users/{world.users[target]}", json={"lastname": "Renamed"}, headers=MERGE_PATCH
    )
    assert response.status_code == status, response.text


@pytest.mark.parametrize(
    ("actor", "status"),
    [
        ("admin", 204),
        ("usermanager", 204),
        ("alice", 204),
        ("claire", 404),
        ("bob", 403),
        ("support", 403),
        ("sales", 403),
    ],
)
async def test_who_may_delete_a_user(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, actor: str, status: int
) -> None:
    target = world.add_user(f"doomed-{actor}", "acme", roles=(Role.ACCESS_MONITORING,))
    await sign_in(actor)
    response = await client.delete(f"/api/users/{target}")
    assert response.status_code == status, response.text
    with Session(world.engine) as session:
        assert (session.get(User, target) is None) == (status == 204)


async def test_an_unknown_user_is_not_found(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    unknown = "00000000-0000-4000-8000-000000000000"
    assert (await client.delete(f"/api/users/{unknown}")).status_code == 404
    patch = await client.patch(f"/api/users/{unknown}", json={}, headers=MERGE_PATCH)
    assert patch.status_code == 404
    assert (await client.delete("/api/users/not-a-uuid")).status_code == 404


# --- impersonation ----------------------------------------------------------------------------


@pytest.mark.parametrize(("impersonator", "allowed"), [("sales", False), ("admin", True)])
async def test_writes_are_refused_while_sales_impersonate(
    client: httpx.AsyncClient, world: World, impersonator: str, allowed: bool
) -> None:
    impersonating(client, world, impersonator, "alice")
    created = await client.post("/api/users", json=new_user(world))
    updated = await client.patch(
        f"/api/users/{world.users['bob']}", json={"lastname": "Durand"}, headers=MERGE_PATCH
    )
    target = world.add_user(f"kept-{impersonator}", "acme")
    deleted = await client.delete(f"/api/users/{target}")
    own = await client.patch(
        f"/api/users/{world.users['alice']}", json={"lastname": "Martin"}, headers=MERGE_PATCH
    )
    statuses = [created.status_code, updated.status_code, deleted.status_code, own.status_code]
    assert statuses == ([201, 200, 204, 200] if allowed else [403] * 4)
    if not allowed:
        assert "impersonates" in created.json()["detail"]
        return
    with Session(world.engine) as session:
        entry = session.exec(
            select(AuditLog).where(col(AuditLog.subject_id) == uuid.UUID(created.json()["id"]))
        ).one()
    assert (entry.actor_id, entry.detail["impersonator_email"]) == (
        world.users["alice"],
        world.email(impersonator),
    )


# --- deleting ends sessions -------------------------------------------------------------------


async def test_a_deleted_users_sessions_end(
    app: object, client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    victim = world.add_user("victim", "acme")
    await sign_in("victim")
    victim_cookie = client.cookies[COOKIE_NAME]
    client.cookies.clear()
    await sign_in("alice")
    assert (await client.delete(f"/api/users/{victim}")).status_code == 204
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, victim_cookie)
    assert (await client.get("/api/users")).status_code == 401
    with Session(world.engine) as session:
        assert not session.exec(
            select(ProviderSession).where(col(ProviderSession.user_id) == victim)
        ).first()


async def test_a_user_may_delete_themself_and_is_logged_out(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    leaver = world.add_user("leaver", "acme", roles=(Role.ACCESS_MONITORING,))
    await sign_in("leaver")
    response = await client.delete(f"/api/users/{leaver}")
    assert response.status_code == 204
    assert "Max-Age=0" in response.headers["set-cookie"]
    assert (await client.get(f"/api/users/{leaver}")).status_code == 401


async def test_writes_are_audited_with_both_users(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    created = (
        await client.post("/api/users", json=new_user(world, password="Secret-Pass-2026"))
    ).json()
    await client.patch(
        f"/api/users/{created['id']}", json={"lastname": "Audited"}, headers=MERGE_PATCH
    )
    await client.delete(f"/api/users/{created['id']}")
    with Session(world.engine) as session:
        entries = session.exec(
            select(AuditLog)
            .where(col(AuditLog.subject_id) == uuid.UUID(created["id"]))
            .order_by(col(AuditLog.at))
        ).all()
    assert [entry.action for entry in entries] == ["user_created", "user_updated", "user_deleted"]
    assert {entry.actor_id for entry in entries} == {world.users["alice"]}
    assert entries[-1].detail["subject_email"] == created["email"]
    assert entries[1].detail["fields"] == ["lastname"]
    assert "password" in entries[0].detail["fields"]
    assert "Secret-Pass-2026" not in str([entry.detail for entry in entries])
