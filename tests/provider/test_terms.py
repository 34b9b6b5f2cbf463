"""Terms of use (spec sections 4 and 8): until accepted, the API answers 403 required_terms,
except for reading oneself and accepting them."""

import httpx
import pytest
from sqlmodel import Session

from portal.provider.platform.models import User
from tests.provider.conftest import SignIn, World


@pytest.mark.parametrize(
    "path",
    ["/api/users", "/api/users/{bob}", "/api/companies", "/api/companies/{acme}"],
)
@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Please accept the terms and conditions of use."),
        ("fr", "Veuillez accepter les conditions générales d'utilisation."),
    ],
)
async def test_before_accepting_the_terms_the_api_answers_403_required_terms(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    path: str,
    language: str,
    message: str,
) -> None:
    await sign_in("newbie")
    url = path.format(bob=world.users["bob"], acme=world.companies["acme"])
    response = await client.get(url, headers={"Accept-Language": language})
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "required_terms"
    assert body["detail"] == body["hydra:description"] == message
    assert body["@type"] == "hydra:Error"


async def test_before_accepting_the_terms_one_reads_oneself(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("newbie")
    response = await client.get(f"/api/users/{world.users['newbie']}?includes[]=company")
    assert response.status_code == 200
    assert response.json()["hasAcceptedTerms"] is False
    assert response.json()["company"]["name"] == "Acme Networks"


@pytest.mark.parametrize(("target", "status"), [("bob", 403), ("claire", 404)])
async def test_nobody_accepts_the_terms_for_someone_else(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, target: str, status: int
) -> None:
    await sign_in("alice")
    response = await client.post(f"/api/users/{world.users[target]}/accept_terms")
    assert response.status_code == status


async def test_accepting_the_terms_opens_the_api(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    fresh = world.add_user("fresh", "acme", roles=("ROLE_MANAGE_USERS",), has_accepted_terms=False)
    await sign_in("fresh")
    response = await client.post(f"/api/users/{fresh}/accept_terms")
    assert response.status_code == 200
    assert response.json()["@id"] == f"/api/users/{fresh}"
    assert response.json()["hasAcceptedTerms"] is True
    with Session(world.engine) as session:
        assert session.get_one(User, fresh).terms_accepted_at is not None
    assert (await client.get("/api/users")).status_code == 200


async def test_accepting_the_terms_needs_a_session(client: httpx.AsyncClient, world: World) -> None:
    response = await client.post(f"/api/users/{world.users['newbie']}/accept_terms")
    assert response.status_code == 401
