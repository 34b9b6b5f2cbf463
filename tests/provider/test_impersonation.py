"""Impersonation (spec 4 and 7, DESIGN 4): who may act as whom, no chains, a rotated session
that remembers the impersonator, and an audit row for every start, exit and refusal."""

import httpx
import pytest
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform.models import AuditLog, ProviderSession
from portal.provider.platform.sessions import COOKIE_NAME, token_hash
from tests.provider.accounts import add_staff, new_user
from tests.provider.conftest import SignIn, World


@pytest.fixture(autouse=True)
def staff(world: World) -> None:
    add_staff(world)
    if "admin2" not in world.users:
        world.add_user("admin2", "staff", roles=(Role.ADMIN,), email="admin2@patchbay.test")


async def _impersonate(client: httpx.AsyncClient, target: str, **headers: str) -> httpx.Response:
    """Starts an impersonation of ``target``, or leaves it with ``_exit``: POSTs only."""
    if target == "_exit":
        return await client.post("/api/impersonation/exit", headers=headers)
    return await client.post("/api/impersonation", json={"email": target}, headers=headers)


def _session(token: str, world: World) -> ProviderSession | None:
    with Session(world.engine) as session:
        return session.get(ProviderSession, token_hash(token))


def _audit(world: World, action: str) -> list[AuditLog]:
    with Session(world.engine) as session:
        return list(
            session.exec(
                select(AuditLog).where(AuditLog.action == action).order_by(col(AuditLog.at))
            )
        )


async def test_without_a_session_impersonation_answers_401(
    client: httpx.AsyncClient, world: World
) -> None:
    assert (await _impersonate(client, "alice@acme-networks.test")).status_code == 401
    assert (await _impersonate(client, "_exit")).status_code == 401


async def test_an_admin_acts_as_a_customer_in_a_new_session(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    old = (await sign_in("admin")).cookies[COOKIE_NAME]
    old_session = _session(old, world)
    assert old_session is not None
    response = await _impersonate(
        client, " Alice@ACME-networks.test", **{"X-Forwarded-For": "192.0.2.9"}
    )
    assert response.status_code == 200, response.text
    user = response.json()
    assert user["email"] == "alice@acme-networks.test"
    assert user["company"]["name"] == "Acme Networks"
    new = response.cookies[COOKIE_NAME]
    assert new != old
    assert _session(old, world) is None
    stored = _session(new, world)
    assert stored is not None
    assert stored.user_id == world.users["alice"]
    assert stored.impersonator_id == world.users["admin"]
    assert stored.created_at == old_session.created_at  # no longer a login than the first
    # The new current user sees what Alice sees.
    emails = [
        u["email"]
        for u in (await client.get("/api/users", params={"itemsPerPage": 100})).json()[
            "hydra:member"
        ]
    ]
    assert "claire@example.test" not in emails
    [started] = _audit(world, "impersonation_started")[-1:]
    assert started.actor_id == world.users["admin"]
    assert started.subject_id == world.users["alice"]
    assert started.client_address == "192.0.2.9"

    exited = await _impersonate(client, "_exit")
    assert exited.status_code == 200
    assert exited.json()["email"] == "admin@patchbay.test"
    back = exited.cookies[COOKIE_NAME]
    assert _session(new, world) is None
    restored = _session(back, world)
    assert restored is not None
    assert restored.user_id == world.users["admin"]
    assert restored.impersonator_id is None
    [ended] = _audit(world, "impersonation_exited")[-1:]
    assert (ended.actor_id, ended.subject_id) == (world.users["admin"], world.users["alice"])


@pytest.mark.parametrize(
    ("actor", "target", "status", "detail"),
    [
        ("sales", "alice", 200, None),
        ("admin", "usermanager", 200, None),  # admins impersonate staff too
        ("sales", "support", 403, "You are not allowed to impersonate this user."),
        ("sales", "admin", 403, "You are not allowed to impersonate this user."),
        ("admin", "admin2", 403, "You are not allowed to impersonate this user."),
        ("admin", "admin", 403, "You cannot impersonate yourself."),
        ("alice", "bob", 403, "You are not allowed to access this resource."),
        ("usermanager", "bob", 403, "You are not allowed to access this resource."),
        ("support", "bob", 403, "You are not allowed to access this resource."),
    ],
)
async def test_who_may_impersonate_whom(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    actor: str,
    target: str,
    status: int,
    detail: str | None,
) -> None:
    await sign_in(actor)
    response = await _impersonate(client, world.email(target))
    assert response.status_code == status, response.text
    if detail:
        assert response.json()["detail"] == detail
        refused = _audit(world, "impersonation_refused")[-1]
        assert refused.actor_id == world.users[actor]
        assert refused.client_address == "127.0.0.1"


async def test_an_unknown_email_is_not_found_for_those_who_may_impersonate(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    assert (await _impersonate(client, "nobody@example.test")).status_code == 403
    await sign_in("admin")
    assert (await _impersonate(client, "nobody@example.test")).status_code == 404
    assert (await _impersonate(client, "gone@example.test")).status_code == 404  # inactive
    assert _audit(world, "impersonation_refused")[-1].detail["reason"] == "unknown_user"


async def test_no_chains(client: httpx.AsyncClient, world: World, sign_in: SignIn) -> None:
    await sign_in("admin")
    assert (await _impersonate(client, "alice@acme-networks.test")).status_code == 200
    response = await _impersonate(client, "bob@example.test")
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "You are already impersonating a user. Leave the impersonation first."
    )
    refused = _audit(world, "impersonation_refused")[-1]
    assert refused.actor_id == world.users["admin"]
    assert refused.detail["impersonated_email"] == "alice@acme-networks.test"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "You are not impersonating anyone."),
        ("fr", "Vous n'empruntez l'identité de personne."),
    ],
)
async def test_leaving_without_impersonating_answers_400(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, language: str, message: str
) -> None:
    await sign_in("admin")
    response = await _impersonate(client, "_exit", **{"Accept-Language": language})
    assert response.status_code == 400
    assert response.json()["detail"] == message


async def test_a_missing_email_answers_422(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    assert (await client.post("/api/impersonation", json={})).status_code == 422


async def test_a_link_cannot_start_or_end_an_impersonation(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Issue 18, item 8: ``GET /api?_impersonate=`` switched users, so a cross-site link (an
    image, a redirect) started an impersonation in a staff member's name. No GET switches."""
    admin = (await sign_in("admin")).cookies[COOKIE_NAME]
    started = len(_audit(world, "impersonation_started"))
    for target in ("alice@acme-networks.test", "_exit"):
        response = await client.get("/api", params={"_impersonate": target})
        assert response.status_code in (404, 405), response.text
    assert (await client.get("/api/impersonation")).status_code == 405
    stored = _session(admin, world)
    assert stored is not None
    assert (stored.user_id, stored.impersonator_id) == (world.users["admin"], None)
    assert len(_audit(world, "impersonation_started")) == started


async def test_a_foreign_page_cannot_post_an_impersonation(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    started = len(_audit(world, "impersonation_started"))
    response = await client.post(
        "/api/impersonation",
        json={"email": "alice@acme-networks.test"},
        headers={"Origin": "https://evil.test"},
    )
    assert response.status_code == 403
    assert len(_audit(world, "impersonation_started")) == started


async def test_impersonating_a_user_who_has_not_accepted_the_terms(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    assert (await _impersonate(client, world.email("newbie"))).status_code == 200
    newbie = world.users["newbie"]
    listing = await client.get("/api/users")
    assert listing.status_code == 403
    assert listing.json()["code"] == "required_terms"
    # Accepting is the user's own act, not the impersonator's.
    assert (await client.post(f"/api/users/{newbie}/accept_terms")).status_code == 403
    assert (await _impersonate(client, "_exit")).status_code == 200


async def test_sales_impersonating_cannot_write_users(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("sales")
    assert (await _impersonate(client, "alice@acme-networks.test")).status_code == 200
    assert (await client.post("/api/users", json=new_user(world))).status_code == 403
    await _impersonate(client, "_exit")
    await sign_in("admin")
    assert (await _impersonate(client, "alice@acme-networks.test")).status_code == 200
    assert (await client.post("/api/users", json=new_user(world))).status_code == 201
