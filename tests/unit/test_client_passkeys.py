"""The passkey calls of the client (issue 52): the ceremonies' two calls each, the list, rename
and delete, the methods a password login's second step takes, and the new recovery codes."""

import json

import httpx

from portal.client import ProviderClient

BASE_URL = "http://provider.test/provider"
PASSKEY = {
    "id": "p-1",
    "name": "Laptop",
    "createdAt": "2026-12-05T10:00:00Z",
    "lastUsedAt": None,
}


def client_answering(requests: list[httpx.Request], *responses: httpx.Response) -> ProviderClient:
    answers = iter(responses)

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return next(answers)

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_a_registration_posts_the_options_then_the_browsers_answer() -> None:
    requests: list[httpx.Request] = []
    options = {"challengeToken": "t-1", "publicKey": {"challenge": "abc", "rp": {"id": "x"}}}
    created = {**PASSKEY, "recoveryCodes": ["a-b"] * 10}
    async with client_answering(
        requests, httpx.Response(200, json=options), httpx.Response(201, json=created)
    ) as client:
        ceremony = await client.passkeys.registration_options()
        passkey = await client.passkeys.register(ceremony.challenge_token, "Laptop", {"id": "c"})

    assert ceremony.public_key == options["publicKey"]
    assert (passkey.name, len(passkey.recovery_codes)) == ("Laptop", 10)
    assert [(r.method, r.url.path) for r in requests] == [
        ("POST", "/provider/api/passkey_registrations"),
        ("POST", "/provider/api/passkeys"),
    ]
    assert json.loads(requests[1].content) == {
        "challengeToken": "t-1",
        "name": "Laptop",
        "credential": {"id": "c"},
    }


async def test_passkeys_are_listed_renamed_and_deleted() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(
        requests,
        httpx.Response(200, json=[PASSKEY]),
        httpx.Response(200, json={**PASSKEY, "name": "Work"}),
        httpx.Response(204),
    ) as client:
        (listed,) = await client.passkeys.list()
        renamed = await client.passkeys.rename("p-1", "Work")
        await client.passkeys.delete("p-1")

    assert (listed.id, listed.last_used_at) == ("p-1", None)
    assert renamed.name == "Work"
    assert [(r.method, r.url.path) for r in requests] == [
        ("GET", "/provider/api/passkeys"),
        ("PATCH", "/provider/api/passkeys/p-1"),
        ("DELETE", "/provider/api/passkeys/p-1"),
    ]


async def test_a_password_login_tells_the_second_steps_methods() -> None:
    due = httpx.Response(
        202, json={"secondFactorRequired": True, "methods": ["passkey", "recovery_code"]}
    )
    async with client_answering([], due) as client:
        assert await client.auth.login("a@b.test", "pw") is None
        assert client.auth.second_factor_methods == ("passkey", "recovery_code")


async def test_a_passkey_sign_in_reads_the_user_from_location() -> None:
    requests: list[httpx.Request] = []
    options = {"challengeToken": "t-2", "publicKey": {"challenge": "xyz"}}
    signed_in = httpx.Response(204, headers={"Location": "/api/users/u-9"})
    async with client_answering(requests, httpx.Response(200, json=options), signed_in) as client:
        ceremony = await client.auth.passkey_options()
        user_id = await client.auth.passkey_sign_in(ceremony.challenge_token, {"id": "c"})

    assert user_id == "u-9"
    assert json.loads(requests[1].content) == {
        "challengeToken": "t-2",
        "credential": {"id": "c"},
        "remember": False,
    }


async def test_new_recovery_codes_are_posted_for() -> None:
    requests: list[httpx.Request] = []
    answer = httpx.Response(200, json={"recoveryCodes": ["x-y"] * 10})
    async with client_answering(requests, answer) as client:
        codes = await client.second_factor.new_recovery_codes()

    assert len(codes) == 10
    assert requests[0].url.path == "/provider/api/second_factor/recovery_codes"
