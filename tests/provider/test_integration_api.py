"""Integration API as a whole: who may call it, malformed batches, and its OpenAPI document."""

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.exc import IntegrityError

from portal.provider.integration.kinds import KINDS
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import PDF, counts, put, token_headers

BATCHES = [f"/api/integration/{kind.path}" for kind in KINDS]
FILES = [
    "/api/integration/services/PB-1/documents",
    "/api/integration/services/PB-1/order_pdf",
    "/api/integration/invoices/INV-1/pdf",
    "/api/integration/tickets/HD-1/attachments",
]


async def call(client: httpx.AsyncClient, url: str) -> int:
    if url in BATCHES:
        response = await client.put(url, json=[])
    else:
        response = await client.put(url, files={"file": ("a.pdf", PDF)}, data={"kind": "loa"})
    return response.status_code


async def test_without_a_session_or_token_the_integration_api_answers_401(
    client: httpx.AsyncClient, world: World
) -> None:
    assert {url: await call(client, url) for url in BATCHES + FILES} == dict.fromkeys(
        BATCHES + FILES, 401
    )


@pytest.mark.parametrize("user", ["alice", "support", "claire", "bram"])
async def test_only_administrators_may_load_data(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, user: str
) -> None:
    await sign_in(user)
    assert {url: await call(client, url) for url in BATCHES + FILES} == dict.fromkeys(
        BATCHES + FILES, 403
    )


async def test_an_administrators_session_may_load_data_too(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    body = [{"reference": "C-SESSION", "name": "Loaded by a session"}]
    response = await client.put("/api/integration/companies", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["created"] == 1


async def test_a_body_that_is_not_an_array_is_refused(
    client: httpx.AsyncClient, world: World
) -> None:
    headers = token_headers(world)
    response = await put(client, "companies", {"reference": "C-1"}, headers)
    assert response.status_code == 422
    not_json = await client.put(
        "/api/integration/companies",
        content=b"[{",
        headers={**headers, "Content-Type": "application/json"},
    )
    assert not_json.status_code == 400
    # An empty batch is fine and does nothing.
    assert await counts(client, "companies", [], headers) == (0, 0, 0)


async def test_a_batch_of_non_objects_names_each_index(
    client: httpx.AsyncClient, world: World
) -> None:
    response = await put(client, "companies", [1, "two", None], token_headers(world))
    assert response.status_code == 422
    assert [v["propertyPath"] for v in response.json()["violations"]] == ["[0]", "[1]", "[2]"]


async def test_violations_are_translated(client: httpx.AsyncClient, world: World) -> None:
    headers = {**token_headers(world), "Accept-Language": "fr"}
    body = [{"reference": "C-X", "name": "X", "sales": ["nobody@patchbay.test"]}]
    response = await put(client, "companies", body, headers)
    assert response.status_code == 422
    assert response.json()["detail"] == "Le lot n'est pas valide : rien n'a été enregistré."
    assert "nobody@patchbay.test" in response.json()["violations"][0]["message"]


def test_every_integration_route_is_documented(app: FastAPI) -> None:
    provider = next(route.app for route in app.routes if getattr(route, "path", "") == "/provider")
    spec = provider.openapi()
    for kind in KINDS:
        operation = spec["paths"][f"/api/integration/{kind.path}"]["put"]
        assert operation["summary"]
        assert f"{kind.limit:,}".replace(",", " ") in operation["description"]
        body = operation["requestBody"]["content"]["application/json"]
        assert body["schema"]["maxItems"] == kind.limit
        assert "reference" in body["schema"]["items"]["properties"] or kind.name == "sample"
        assert body["example"]
        assert {"401", "403", "413", "422"} <= set(operation["responses"])
    for url in FILES:
        template = url.replace("PB-1", "{reference}").replace("INV-1", "{reference}")
        operation = spec["paths"][template.replace("HD-1", "{reference}")]["put"]
        assert operation["summary"]
        assert "multipart/form-data" in operation["requestBody"]["content"]
    for path in ("/api/tokens", "/api/tokens/{token_id}"):
        assert all(op["summary"] for op in spec["paths"][path].values())


async def test_a_concurrent_write_of_the_same_keys_answers_409(
    client: httpx.AsyncClient, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def collide(*_args: object) -> None:
        raise IntegrityError("INSERT", {}, Exception("duplicate key"))

    monkeypatch.setattr("portal.provider.integration.routes.integration.upsert", collide)
    response = await put(client, "companies", [], token_headers(world))
    assert response.status_code == 409
    assert "send the batch again" in response.json()["detail"]
