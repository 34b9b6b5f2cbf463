"""The account calls of the client: reset, confirmation, user writes and impersonation, as
the provider contract spells them (methods, paths, bodies, content types, answers)."""

import json

import httpx
import pytest

from portal.client import (
    SESSION_COOKIE,
    ProviderClient,
    UserPayload,
    ValidationFailed,
)
from portal.client.errors import ProviderError

BASE_URL = "http://provider.test/provider"
USER = {
    "@id": "/api/users/u-1",
    "id": "u-1",
    "firstname": "Alice",
    "lastname": "Martin",
    "email": "alice@acme-networks.test",
    "roles": ["ROLE_MANAGE_USERS"],
    "company": {"@id": "/api/companies/c-1", "id": "c-1", "name": "Acme Networks"},
}


def client_answering(requests: list[httpx.Request], response: httpx.Response) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return response

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_request_reset_posts_the_email_and_accepts_204() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(204)) as client:
        await client.auth.request_reset("alice@acme-networks.test")

    (request,) = requests
    assert (request.method, request.url.path) == ("POST", "/provider/reset")
    assert json.loads(request.content) == {"email": "alice@acme-networks.test"}


async def test_request_reset_raises_the_rate_limit_message() -> None:
    answer = httpx.Response(
        429, json={"detail": "Too many attempts."}, headers={"Retry-After": "60"}
    )
    async with client_answering([], answer) as client:
        with pytest.raises(ProviderError) as raised:
            await client.auth.request_reset("alice@acme-networks.test")

    assert (raised.value.code, raised.value.message) == (429, "Too many attempts.")


async def test_reset_password_posts_to_the_token_path_escaped() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(204)) as client:
        await client.auth.reset_password("ab/c?d", "Better-password-1")

    (request,) = requests
    assert request.method == "POST"
    assert request.url.raw_path == b"/provider/reset/ab%2Fc%3Fd"
    assert json.loads(request.content) == {"password": "Better-password-1"}


async def test_reset_password_weak_password_gives_violations_on_password() -> None:
    answer = httpx.Response(
        422,
        json={"detail": "Invalid", "violations": [{"propertyPath": "password", "message": "Weak"}]},
    )
    async with client_answering([], answer) as client:
        with pytest.raises(ValidationFailed) as raised:
            await client.auth.reset_password("t", "weak")

    assert raised.value.by_field() == {"password": ["Weak"]}


def _payload(password: str | None = None) -> UserPayload:
    return UserPayload(
        firstname="Dana",
        lastname="Scully",
        email="dana@acme-networks.test",
        phone_number="+33 1 23 45 67 89",
        password=password,
        roles=["ROLE_ACCESS_INVOICES"],
        company="c-1",
        auxiliary_companies=["c-2"],
    )


async def test_create_posts_the_camel_case_payload_with_includes() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(201, json=USER)) as client:
        user = await client.users.create(_payload("Secret-pass-1"))

    (request,) = requests
    assert (request.method, request.url.path) == ("POST", "/provider/api/users")
    assert request.url.params.multi_items() == [("includes[]", "company")]
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.content) == {
        "firstname": "Dana",
        "lastname": "Scully",
        "email": "dana@acme-networks.test",
        "phoneNumber": "+33 1 23 45 67 89",
        "password": "Secret-pass-1",
        "roles": ["ROLE_ACCESS_INVOICES"],
        "ldap": False,
        "company": "c-1",
        "auxiliaryCompanies": ["c-2"],
    }
    assert user.full_name == "Alice Martin"
    assert user.company is not None
    assert user.company.name == "Acme Networks"


async def test_update_patches_with_the_merge_patch_content_type_and_null_password() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(200, json=USER)) as client:
        await client.users.update("u-1", _payload())

    (request,) = requests
    assert (request.method, request.url.path) == ("PATCH", "/provider/api/users/u-1")
    assert request.headers["Content-Type"] == "application/merge-patch+json"
    assert json.loads(request.content)["password"] is None


async def test_create_violations_are_grouped_by_json_field() -> None:
    answer = httpx.Response(
        422,
        json={
            "violations": [
                {"propertyPath": "email", "message": "Invalid email"},
                {"propertyPath": "roles", "message": "Unable to assign"},
                {"propertyPath": "", "message": "Whole form"},
            ]
        },
    )
    async with client_answering([], answer) as client:
        with pytest.raises(ValidationFailed) as raised:
            await client.users.create(_payload())

    assert raised.value.by_field() == {
        "email": ["Invalid email"],
        "roles": ["Unable to assign"],
        "": ["Whole form"],
    }


async def test_delete_sends_delete_and_accepts_204() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(204)) as client:
        await client.users.delete("u-1")

    (request,) = requests
    assert (request.method, request.url.path) == ("DELETE", "/provider/api/users/u-1")


async def test_impersonation_returns_the_new_user_and_keeps_the_rotated_cookie() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        leaving = request.url.path.endswith("/exit")
        cookie = "rotated-2" if leaving else "rotated-1"
        body = {**USER, "id": "admin", "firstname": "Ada"} if leaving else USER
        return httpx.Response(
            200, json=body, headers={"Set-Cookie": f"{SESSION_COOKIE}={cookie}; Path=/"}
        )

    client = ProviderClient(
        BASE_URL, cookies={SESSION_COOKIE: "first"}, transport=httpx.MockTransport(handler)
    )
    async with client:
        target = await client.impersonation.start("alice@acme-networks.test")
        assert target.email == "alice@acme-networks.test"
        assert client.cookies() == {SESSION_COOKIE: "rotated-1"}
        original = await client.impersonation.exit()

    assert original.firstname == "Ada"
    assert client.cookies() == {SESSION_COOKIE: "rotated-2"}
    assert [(r.method, r.url.path, r.content) for r in requests] == [
        ("POST", "/provider/api/impersonation", b'{"email":"alice@acme-networks.test"}'),
        ("POST", "/provider/api/impersonation/exit", b""),
    ]
    assert requests[1].headers["Cookie"] == f"{SESSION_COOKIE}=rotated-1"


async def test_impersonation_refusal_raises_with_the_provider_detail() -> None:
    answer = httpx.Response(403, json={"detail": "You cannot impersonate an administrator."})
    async with client_answering([], answer) as client:
        with pytest.raises(ProviderError) as raised:
            await client.impersonation.start("admin@patchbay.test")

    assert (raised.value.code, raised.value.message) == (
        403,
        "You cannot impersonate an administrator.",
    )


ACCESS = {
    "@id": "/api/users/u-1/access",
    "@type": "UserAccess",
    "id": "u-1",
    "user": "/api/users/u-1",
    "companies": [
        {
            "@id": "/api/users/u-1/access/c-1",
            "@type": "CompanyAccess",
            "id": "c-1",
            "company": "/api/companies/c-1",
            "companyName": "Acme Networks",
            "limited": True,
            "serviceCount": 2,
        }
    ],
}


async def test_set_access_puts_the_services_chosen_as_iris() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(200, json=ACCESS)) as client:
        access = await client.users.set_access("u-1", "c-1", ["s-1", "s-2"])
    assert requests[0].method == "PUT"
    assert requests[0].url.path == "/provider/api/users/u-1/access/c-1"
    assert json.loads(requests[0].content) == {
        "limited": True,
        "services": ["/api/services/s-1", "/api/services/s-2"],
    }
    company = access.companies[0]
    assert (company.id, company.company_name, company.limited, company.service_count) == (
        "c-1",
        "Acme Networks",
        True,
        2,
    )


async def test_set_access_to_every_service_sends_no_services() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, httpx.Response(200, json=ACCESS)) as client:
        await client.users.set_access("u-1", "c-1", None)
    assert json.loads(requests[0].content) == {"limited": False}


async def test_granted_services_reads_a_page_of_the_company() -> None:
    requests: list[httpx.Request] = []
    page = {
        "hydra:member": [
            {
                "@id": "/api/services/s-1",
                "id": "s-1",
                "reference": "PB-1",
                "clientReferences": ["SHOP-12"],
                "label": "Fibre",
            }
        ],
        "hydra:totalItems": 1,
    }
    async with client_answering(requests, httpx.Response(200, json=page)) as client:
        found = await client.users.granted_services("u-1", "c-1", page=2, items_per_page=100)
    assert requests[0].url.path == "/provider/api/users/u-1/access/c-1/services"
    assert requests[0].url.params["page"] == "2"
    assert requests[0].url.params["itemsPerPage"] == "100"
    assert [(s.id, s.reference, s.client_references) for s in found.items] == [
        ("s-1", "PB-1", ["SHOP-12"])
    ]
