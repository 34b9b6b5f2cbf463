"""The error format, security headers and documentation of the whole API (DESIGN section 3):
never a stack trace, never a 500 for bad input."""

import re

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import Engine

from portal.provider.main import create_app
from tests.provider.conftest import BASE_URL, SignIn, World

ERROR_FIELDS = {
    "@context",
    "@type",
    "title",
    "hydra:title",
    "detail",
    "hydra:description",
    "status",
}


async def test_an_unknown_route_answers_404_in_the_error_format(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/nothing-here", headers={"Accept-Language": "fr"})
    assert response.status_code == 404
    body = response.json()
    assert set(body) == ERROR_FIELDS
    assert body["@context"] == "/api/contexts/Error"
    assert body["@type"] == "hydra:Error"
    assert body["status"] == 404
    assert body["title"] == "Introuvable"
    assert response.headers["content-type"].startswith("application/ld+json")


async def test_a_wrong_method_answers_405_in_the_error_format(client: httpx.AsyncClient) -> None:
    response = await client.delete("/login")
    assert response.status_code == 405
    assert response.json()["status"] == 405


async def test_an_unexpected_failure_answers_500_without_details(engine: Engine) -> None:
    provider = create_app(engine)

    @provider.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("secret internals at /srv/db")

    parent = FastAPI()
    parent.mount("/provider", provider)
    transport = httpx.ASGITransport(parent, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=BASE_URL) as client:
        response = await client.get("/api/boom", headers={"Accept-Language": "fr"})
    assert response.status_code == 500
    body = response.json()
    assert body["detail"].startswith("Une erreur inattendue s'est produite.")
    assert "secret" not in response.text
    assert "Traceback" not in response.text


@pytest.mark.parametrize("path", ["/login", "/logout", "/api/users", "/docs"])
async def test_every_response_carries_the_security_headers(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert "Strict-Transport-Security" not in response.headers  # development


async def test_the_documentation_loads_under_the_mount_point(client: httpx.AsyncClient) -> None:
    docs = await client.get("/docs")
    assert docs.status_code == 200
    assert "'/provider/openapi.json'" in docs.text or '"/provider/openapi.json"' in docs.text
    schema = (await client.get("/openapi.json")).json()
    assert schema["servers"] == [{"url": "/provider"}]
    assert {"/login", "/logout", "/api/users", "/api/users/{user_id}", "/api/companies"} <= set(
        schema["paths"]
    )


GARBAGE = [
    ("GET", "/api/users?page=%00"),
    ("GET", "/api/users?itemsPerPage=1e9"),
    ("GET", "/api/users?itemsPerPage=99999999999999999999999999"),
    ("GET", "/api/users?order[]=asc"),
    ("GET", "/api/users?order[email]="),
    ("GET", "/api/users?order=email"),
    ("GET", "/api/users?order[email][x]=asc"),
    ("GET", "/api/users?name=%25%5F%5C"),
    ("GET", "/api/users?name=" + "x" * 5000),
    ("GET", "/api/users?email=%F0%9F%92%A5"),
    ("GET", "/api/users?company.uuid=%27%20OR%201%3D1"),
    ("GET", "/api/users?includes[]=password&includes[]=company"),
    ("GET", "/api/users/00000000-0000-0000-0000-000000000000"),
    ("GET", "/api/users/..%2F..%2Fetc%2Fpasswd"),
    ("GET", "/api/companies?uuid[]=not-a-uuid"),
    ("GET", "/api/companies?name[]=a&name[]=b"),
    ("GET", "/api/companies?order[sales]=asc"),
    ("GET", "/api/companies/%E2%80%8B"),
    ("POST", "/api/users/00000000-0000-0000-0000-000000000000/accept_terms"),
    ("POST", "/api/users/not-a-uuid/accept_terms"),
    ("PUT", "/api/users"),
]


@pytest.mark.parametrize(("method", "path"), GARBAGE)
async def test_garbage_input_never_answers_500(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, method: str, path: str
) -> None:
    await sign_in("alice")
    response = await client.request(method, path, headers={"Accept-Language": "fr"})
    assert 200 <= response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert body["status"] == response.status_code
        assert not re.search(r"Traceback|File \"", response.text)


@pytest.mark.parametrize(
    "headers",
    [
        {"Cookie": "PATCHBAY_PROVIDER_SESSION=" + "x" * 4000},
        {"Cookie": "PATCHBAY_PROVIDER_SESSION="},
        {"Accept-Language": "zz;q=abc, ,;;"},
        {"X-Forwarded-For": "not-an-address, also bad"},
    ],
)
async def test_garbage_headers_never_answer_500(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    response = await client.get("/api/users", headers=headers)
    assert response.status_code == 401
    login = await client.post(
        "/login", json={"username": "x@y.z", "password": "secret"}, headers=headers
    )
    assert login.status_code == 401


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/api/second_factor", "GET, POST"),
        ("GET", "/logout", "POST"),
        ("DELETE", "/api/users", "GET, POST"),
        # The literal path, not the service id its template would read it as.
        ("OPTIONS", "/api/services/client_reference", "POST"),
        ("GET", "/api/services/client_reference", "POST"),
        ("POST", "/api/invoices/summary", "GET"),
        ("PUT", "/api/users/00000000-0000-0000-0000-000000000000", "DELETE, GET, PATCH"),
    ],
)
async def test_405_names_every_method_of_the_path(
    client: httpx.AsyncClient, method: str, path: str, allowed: str
) -> None:
    """Issue 18, item 9: the Allow header named only the first route's methods (``GET`` where
    the path also answers ``POST``), which the OpenAPI contradicts."""
    response = await client.request(method, path)
    assert response.status_code == 405
    assert response.headers["Allow"] == allowed
