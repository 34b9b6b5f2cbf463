"""Issue 18, item 7: a control character in any text a user can send is refused at the edge,
the same on SQLite (which would store a NUL) and PostgreSQL (which answered 500)."""

import httpx
import pytest
from sqlmodel import Session

from portal.provider.platform.models import User
from tests.provider.conftest import PASSWORD, SignIn, World

MERGE_PATCH = {"Content-Type": "application/merge-patch+json"}


@pytest.mark.parametrize("character", ["\x00", "\x01", "\x1b", "\x7f"])
async def test_login_and_reset_refuse_control_characters_before_login(
    client: httpx.AsyncClient, world: World, character: str
) -> None:
    login = await client.post(
        "/login", json={"username": f"alice{character}@acme-networks.test", "password": PASSWORD}
    )
    assert login.status_code == 422
    assert login.json()["violations"][0]["propertyPath"] == "username"
    reset = await client.post("/reset", json={"email": f"x{character}@example.test"})
    assert reset.status_code == 422


@pytest.mark.parametrize("character", ["\x00", "\t", "\x7f"])
async def test_query_parameters_with_control_characters_are_bad_parameters(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, character: str
) -> None:
    await sign_in("admin")
    for path in ("/api/services", "/api/users", "/api/invoices", "/api/tickets"):
        answer = await client.get(path, params={"search": f"a{character}b"})
        assert answer.status_code == 400, (path, answer.text)
        answer = await client.get(path, params={f"order[name{character}]": "asc"})
        assert answer.status_code == 400, (path, answer.text)


@pytest.mark.parametrize("encoded", ["%00", "%09", "%7f", "%7F", "abc%00def"])
async def test_a_path_with_a_control_character_names_nothing(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, encoded: str
) -> None:
    await sign_in("admin")
    for prefix in ("/api/users/", "/api/services/", "/api/invoices/", "/reset/"):
        method = client.post if prefix == "/reset/" else client.get
        kwargs = {"json": {"password": "Another-Password-42"}} if prefix == "/reset/" else {}
        answer = await method(prefix + encoded, **kwargs)
        assert answer.status_code == 404, (prefix, answer.text)


@pytest.mark.parametrize("encoded", ["%0A", "a%0Ab", "%0D%0A"])
async def test_a_path_with_a_line_break_gets_the_providers_own_404(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, encoded: str
) -> None:
    """Found by schemathesis (issue 18, item 9): the mount stopped at a line break, and the
    parent application answered with a 404 of its own format (ProviderMount)."""
    await sign_in("admin")
    for path in (f"/api/users/{encoded}", f"/api/sensors/{encoded}/chart_legend", f"/{encoded}"):
        answer = await client.get(path)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.headers["content-type"].startswith("application/ld+json"), path
        assert answer.json()["@type"] == "hydra:Error"


async def test_a_body_with_a_nul_is_refused_and_nothing_is_stored(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    user_id = world.users["bob"]
    answer = await client.patch(
        f"/api/users/{user_id}",
        json={"firstname": "Bo\x00b", "lastname": "Durand"},
        headers=MERGE_PATCH,
    )
    assert answer.status_code == 422
    assert answer.json()["violations"] == [
        {
            "propertyPath": "firstname",
            "message": "This value contains characters that are not allowed.",
        }
    ]
    with Session(world.engine) as db:
        assert db.get_one(User, user_id).firstname == "Bob"
    french = await client.patch(
        f"/api/users/{user_id}",
        json={"firstname": "Bob\x1b"},
        headers={**MERGE_PATCH, "Accept-Language": "fr"},
    )
    assert french.status_code == 422
    assert "caractères" in french.json()["violations"][0]["message"]
