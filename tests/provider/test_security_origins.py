"""Issue 18, items 1 and 3: a page of another origin cannot write to the provider with the
user's cookies. SameSite=Lax already keeps the cookie off most cross-site requests; the provider
also refuses any state-changing request whose Origin (or, without it, Referer) is foreign."""

import httpx
import pytest

from tests.provider.conftest import PASSWORD, SignIn, World

PORTAL = "http://localhost:3000"  # the origin of the default PORTAL_PUBLIC_URL


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://localhost:3001"},  # another port is another origin
        {"Referer": "https://evil.example/page.html"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
async def test_a_foreign_page_cannot_log_in(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    body = {"username": world.email("alice"), "password": PASSWORD}
    response = await client.post("/login", json=body, headers=headers)
    assert response.status_code == 403
    assert response.json()["@type"] == "hydra:Error"
    assert "set-cookie" not in response.headers


async def test_a_foreign_page_cannot_change_anything_with_the_users_cookie(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    foreign = {"Origin": "https://evil.example"}
    rename = await client.patch(
        f"/api/users/{world.users['admin']}",
        json={"firstname": "Mallory"},
        headers={**foreign, "Content-Type": "application/merge-patch+json"},
    )
    assert rename.status_code == 403
    # The session is still the administrator's own: nothing above took effect.
    me = await client.get(f"/api/users/{world.users['admin']}")
    assert me.status_code == 200
    assert me.json()["firstname"] == "Admin"


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a server: the portal's backend, an integration
        {"Origin": PORTAL},
        {"Origin": "HTTP://LOCALHOST:3000"},
        {"Referer": f"{PORTAL}/login?redirect=/services"},
        {"Sec-Fetch-Site": "same-origin"},
    ],
)
async def test_the_portal_and_servers_still_log_in(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    body = {"username": world.email("bob"), "password": PASSWORD}
    assert (await client.post("/login", json=body, headers=headers)).status_code == 204


async def test_reads_are_not_refused_by_origin(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Reads change nothing; CORS keeps a foreign page from reading the answer."""
    await sign_in("bob")
    response = await client.get(
        f"/api/users/{world.users['bob']}", headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 200
