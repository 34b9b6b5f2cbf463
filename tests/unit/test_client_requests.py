"""What the client puts on the wire: query strings and headers, as the provider reads them."""

from datetime import date

import httpx

from portal.client import ProviderClient, query_params
from portal.client.models import UserFilters

BASE_URL = "http://provider.test/provider"
EMPTY_COLLECTION = {"hydra:member": [], "hydra:totalItems": 0}


def recording_client(
    requests: list[httpx.Request],
    body: object = EMPTY_COLLECTION,
    *,
    language: str = "en",
    forwarded_for: str | None = None,
) -> ProviderClient:
    """A client whose provider answers ``body`` to everything and records each request."""

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, json=body)

    return ProviderClient(
        BASE_URL,
        language=language,
        forwarded_for=forwarded_for,
        transport=httpx.MockTransport(handler),
    )


def test_query_params_encode_paging_order_includes_and_list_filters() -> None:
    params = query_params(
        page=2,
        items_per_page=12,
        order={"lastname": "asc", "dateCreated": "desc"},
        includes=("company", "type"),
        filters={
            "status": ["active", "under_construction"],
            "type.uuid": ("t1",),
            "search": "paris",
            "isPaid": False,
            "dateDue[after]": date(2026, 1, 31),
            "reference": "",
            "email": None,
            "tags[]": ["product_path"],
        },
    )

    assert params == [
        ("page", "2"),
        ("itemsPerPage", "12"),
        ("order[lastname]", "asc"),
        ("order[dateCreated]", "desc"),
        ("includes[]", "company"),
        ("includes[]", "type"),
        ("status[]", "active"),
        ("status[]", "under_construction"),
        ("type.uuid[]", "t1"),
        ("search", "paris"),
        ("isPaid", "false"),
        ("dateDue[after]", "2026-01-31"),
        ("tags[]", "product_path"),
    ]


async def test_users_list_sends_paging_order_filters_and_includes() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests) as client:
        await client.users.list(
            UserFilters(name="ali"),
            page=3,
            items_per_page=25,
            order={"lastname": "asc"},
            includes=("company",),
        )

    (request,) = requests
    assert request.url.path == "/provider/api/users"
    assert request.url.params.multi_items() == [
        ("page", "3"),
        ("itemsPerPage", "25"),
        ("order[lastname]", "asc"),
        ("includes[]", "company"),
        ("name", "ali"),
    ]


async def test_user_get_embeds_the_company_by_default() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests, body={"@id": "/api/users/u1"}) as client:
        await client.users.get("u1")

    assert str(requests[0].url) == f"{BASE_URL}/api/users/u1?includes%5B%5D=company"


async def test_companies_list_sends_uuids_as_a_list_filter() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests) as client:
        await client.companies.list(uuids=["c1", "c2"], includes=("sales",))

    params = requests[0].url.params
    assert params.get_list("uuid[]") == ["c1", "c2"]
    assert params.get_list("includes[]") == ["sales"]
    assert "name" not in params


async def test_accept_terms_posts_to_the_users_action() -> None:
    requests: list[httpx.Request] = []
    body = {"@id": "/api/users/u1", "hasAcceptedTerms": True}
    async with recording_client(requests, body=body) as client:
        user = await client.users.accept_terms("u1")

    assert (requests[0].method, requests[0].url.path) == (
        "POST",
        "/provider/api/users/u1/accept_terms",
    )
    assert user.has_accepted_terms


async def test_impersonation_start_and_exit() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests, body={}) as client:
        await client.impersonation.start("bob@acme-networks.test")
        await client.impersonation.exit()

    assert [(r.method, r.url.path, r.content) for r in requests] == [
        ("POST", "/provider/api/impersonation", b'{"email":"bob@acme-networks.test"}'),
        ("POST", "/provider/api/impersonation/exit", b""),
    ]


async def test_headers_carry_language_forwarded_address_and_json_ld() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests, language="fr", forwarded_for="203.0.113.7") as client:
        await client.users.list()
        await client.for_caller("en").users.list()

    first, second = requests
    assert first.headers["Accept-Language"] == "fr"
    assert first.headers["X-Forwarded-For"] == "203.0.113.7"
    assert first.headers["Accept"] == "application/ld+json"
    assert second.headers["Accept-Language"] == "en"
    assert "X-Forwarded-For" not in second.headers


async def test_no_forwarded_header_when_no_address_is_given() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests) as client:
        await client.users.list()

    assert "X-Forwarded-For" not in requests[0].headers
    assert requests[0].headers["Accept-Language"] == "en"
