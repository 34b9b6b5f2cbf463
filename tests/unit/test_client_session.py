"""The provider session: login through Location, the cookie jar, export and restore, logout."""

import httpx
import pytest

from portal.client import SESSION_COOKIE, InvalidResponse, NetworkError, ProviderClient

BASE_URL = "http://127.0.0.1:8000/provider"
USER_UUID = "0b7c6a52-8f0e-4d7e-9a51-3d8f1c2b9e10"


class FakeProvider:
    """Answers login with a session cookie and records the cookie each later call carries."""

    def __init__(self) -> None:
        self.sessions_seen: list[str | None] = []  # the Cookie header of each call after login
        self.login_bodies: list[bytes] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/provider/login":
            self.login_bodies.append(request.content)
            return httpx.Response(
                204,
                headers={
                    "Location": f"/api/users/{USER_UUID}",
                    "Set-Cookie": f"{SESSION_COOKIE}=s3cr3t; Path=/; HttpOnly; SameSite=Lax",
                },
            )
        self.sessions_seen.append(request.headers.get("Cookie"))
        if request.url.path == "/provider/logout" and request.method == "POST":
            return httpx.Response(
                204, headers={"Set-Cookie": f"{SESSION_COOKIE}=; Path=/; Max-Age=0"}
            )
        return httpx.Response(200, json={"@id": f"/api/users/{USER_UUID}"})


async def test_login_returns_the_uuid_of_the_location_and_keeps_the_session_cookie() -> None:
    provider = FakeProvider()
    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(provider)) as client:
        uuid = await client.auth.login("alice@acme-networks.test", "Patchbay-demo-2026")
        await client.users.get(uuid)

        assert uuid == USER_UUID
        assert provider.login_bodies == [
            b'{"username":"alice@acme-networks.test","password":"Patchbay-demo-2026"}'
        ]
        assert provider.sessions_seen == [f"{SESSION_COOKIE}=s3cr3t"]
        assert client.cookies() == {SESSION_COOKIE: "s3cr3t"}


async def test_login_sends_the_browsers_time_zone_when_known() -> None:
    # Issue 50: the e-mails' time zone until the user chooses one.
    provider = FakeProvider()
    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(provider)) as client:
        await client.auth.login("a@b.test", "pw", "Europe/Paris")
    assert provider.login_bodies == [
        b'{"username":"a@b.test","password":"pw","timeZone":"Europe/Paris"}'
    ]


async def test_login_reads_an_absolute_location_too() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(204, headers={"Location": f"{BASE_URL}/api/users/{USER_UUID}"})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(handler)) as client:
        assert await client.auth.login("a@b.test", "pw") == USER_UUID


async def test_login_without_location_is_an_invalid_response() -> None:
    async with ProviderClient(
        BASE_URL, transport=httpx.MockTransport(lambda request: httpx.Response(204))
    ) as client:
        with pytest.raises(InvalidResponse) as caught:
            await client.auth.login("a@b.test", "pw")

    assert caught.value.code == 502


async def test_exported_cookies_restore_the_session_in_a_new_client() -> None:
    provider = FakeProvider()
    transport = httpx.MockTransport(provider)
    async with ProviderClient(BASE_URL, transport=transport) as first:
        await first.auth.login("alice@acme-networks.test", "Patchbay-demo-2026")
        saved = first.cookies()

    async with ProviderClient(BASE_URL, cookies=saved, transport=transport) as second:
        assert second.cookies() == {SESSION_COOKIE: "s3cr3t"}
        await second.users.get(USER_UUID)

    assert provider.sessions_seen == [f"{SESSION_COOKIE}=s3cr3t"]


async def test_logout_calls_the_provider_with_the_session_and_empties_the_jar() -> None:
    provider = FakeProvider()
    async with ProviderClient(
        BASE_URL, cookies={SESSION_COOKIE: "s3cr3t"}, transport=httpx.MockTransport(provider)
    ) as client:
        await client.auth.logout()

        assert provider.sessions_seen == [f"{SESSION_COOKIE}=s3cr3t"]
        assert client.cookies() == {}


async def test_logout_empties_the_jar_even_when_the_provider_is_unreachable() -> None:
    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    async with ProviderClient(
        BASE_URL, cookies={SESSION_COOKIE: "s3cr3t"}, transport=httpx.MockTransport(unreachable)
    ) as client:
        with pytest.raises(NetworkError):
            await client.auth.logout()

        assert client.cookies() == {}


async def test_close_ends_the_http_client() -> None:
    client = ProviderClient(BASE_URL, transport=httpx.MockTransport(FakeProvider()))
    await client.close()

    with pytest.raises(RuntimeError):
        await client.users.get(USER_UUID)
