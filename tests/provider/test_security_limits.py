"""Issue 18, item 6: no request burns seconds of CPU or reads megabytes it will refuse."""

import time

import httpx

from portal.client_references import CLIENT_REFERENCES_MAX, split_client_references
from tests.provider.conftest import PASSWORD, SignIn, World

MEGABYTE = 1024 * 1024


def test_splitting_forty_thousand_client_references_is_linear() -> None:
    """40 000 distinct parts took 28 s when repeats were looked up in a list."""
    text = ",".join(f"ref-{n}" for n in range(40_000))
    started = time.perf_counter()
    assert len(split_client_references(text)) == 40_000
    assert time.perf_counter() - started < 0.5
    capped = split_client_references(text, limit=CLIENT_REFERENCES_MAX)
    assert capped == [f"ref-{n}" for n in range(CLIENT_REFERENCES_MAX + 1)]
    assert split_client_references(" a, b,,a ") == ["a", "b"]


async def test_forty_thousand_client_references_are_refused_at_once(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    text = ",".join(f"ref-{n}" for n in range(40_000))
    started = time.perf_counter()
    answer = await client.post(
        "/api/services/client_reference", json={"reference": "PB-NONE", "clientReferences": text}
    )
    assert answer.status_code == 422
    assert "at most 20" in answer.json()["violations"][0]["message"]
    assert time.perf_counter() - started < 2


async def test_a_json_body_over_the_limit_is_a_413_before_it_is_read(
    client: httpx.AsyncClient, world: World
) -> None:
    body = b'{"username": "' + b"a" * (2 * MEGABYTE) + b'", "password": "x"}'
    answer = await client.post("/login", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["@type"] == "hydra:Error"
    assert answer.headers["x-content-type-options"] == "nosniff"


async def test_a_streamed_body_without_a_length_is_cut_at_the_limit(
    client: httpx.AsyncClient, world: World
) -> None:
    sent = 0

    async def chunks():
        nonlocal sent
        yield b'{"username": "'
        for _ in range(40):
            sent += 64 * 1024
            yield b"a" * (64 * 1024)
        yield b'", "password": "x"}'

    answer = await client.post(
        "/login", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413


async def test_a_multipart_body_is_bounded_too(client: httpx.AsyncClient, world: World) -> None:
    """A multipart Content-Type used to let any body through: 40 MB to /login were read whole
    before its 422, and the integration routes parse a form before they check the token."""
    boundary = "pb-limits"
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n'
    declared = head.encode() + b"a" * (12 * MEGABYTE) + f"\r\n--{boundary}--\r\n".encode()
    content_type = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    answer = await client.post("/login", content=declared, headers=content_type)
    assert answer.status_code == 413
    assert answer.json()["@type"] == "hydra:Error"

    sent = 0

    async def chunks():
        nonlocal sent
        yield head.encode()
        for _ in range(192):  # 12 MB without a declared length
            sent += 64 * 1024
            yield b"a" * (64 * 1024)

    streamed = await client.post(
        "/api/services/client_reference/import", content=chunks(), headers=content_type
    )
    assert streamed.status_code == 413
    assert sent < 11 * MEGABYTE  # refused once past the limit, not at the end


async def test_a_body_under_the_limit_still_works(client: httpx.AsyncClient, world: World) -> None:
    body = {"username": world.email("alice"), "password": PASSWORD}
    assert (await client.post("/login", json=body)).status_code == 204


async def test_query_string_and_headers_are_capped(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    long_query = await client.get("/api/services", params={"search": "x" * 20_000})
    assert long_query.status_code == 414
    assert long_query.json()["status"] == 414
    huge_headers = await client.get("/api/services", headers={"X-Filler": "y" * 40_000})
    assert huge_headers.status_code == 431
    assert (await client.get("/api/services", params={"search": "x" * 200})).status_code == 200
