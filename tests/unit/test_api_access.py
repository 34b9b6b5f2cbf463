"""The API access screen's pieces (issue 51): the client's token calls as the provider contract
spells them, the rows as the page shows them, the scopes the form keeps, and the curl examples
with the user's own services."""

import json
from datetime import UTC, datetime

import httpx

from portal.client import ProviderClient
from portal.client.models import PersonalToken, Service
from portal.pages.api_access.state import TokenRow, curl_examples

BASE_URL = "http://provider.test/provider"
TOKEN = {
    "@id": "/api/personal_tokens/t-1",
    "@type": "PersonalApiToken",
    "id": "t-1",
    "name": "NOC",
    "scopes": ["services", "maintenances"],
    "createdAt": "2026-12-01T09:00:00Z",
    "lastUsedAt": None,
    "expiresAt": "2027-03-01T09:00:00Z",
    "revokedAt": None,
    "state": "active",
}


def client_answering(requests: list[httpx.Request], response: httpx.Response) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return response

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_a_token_is_created_with_its_name_scopes_and_expiry() -> None:
    requests: list[httpx.Request] = []
    answer = httpx.Response(201, json={**TOKEN, "token": "pbt_secret"})
    expires = datetime(2027, 3, 1, 9, 0, tzinfo=UTC)
    async with client_answering(requests, answer) as client:
        made = await client.personal_tokens.create("NOC", ["services"], expires)
    (request,) = requests
    assert (request.method, request.url.path) == ("POST", "/provider/api/personal_tokens")
    assert json.loads(request.content) == {
        "name": "NOC",
        "scopes": ["services"],
        "expiresAt": "2027-03-01T09:00:00+00:00",
    }
    assert (made.id, made.token) == ("t-1", "pbt_secret")


async def test_the_list_asks_for_a_hundred_and_revocation_deletes() -> None:
    requests: list[httpx.Request] = []
    collection = {"hydra:member": [TOKEN], "hydra:totalItems": 1}
    async with client_answering(requests, httpx.Response(200, json=collection)) as client:
        page = await client.personal_tokens.list()
    assert [token.name for token in page.items] == ["NOC"]
    assert requests[0].url.params["itemsPerPage"] == "100"
    requests.clear()
    async with client_answering(requests, httpx.Response(204)) as client:
        await client.personal_tokens.revoke("t-1")
    assert (requests[0].method, requests[0].url.path) == (
        "DELETE",
        "/provider/api/personal_tokens/t-1",
    )


def test_a_row_names_its_scopes_state_and_moments_in_the_users_language() -> None:
    token = PersonalToken.model_validate(TOKEN)
    english = TokenRow.of(token, "en", "UTC")
    assert (english.scopes, english.state_label, english.last_used) == (
        "Services, Maintenances",
        "Active",
        "",
    )
    assert english.expires == "1 Mar 2027, 9:00 am"
    french = TokenRow.of(token, "fr", "Europe/Paris")
    assert (french.scopes, french.state_label) == ("Services, Maintenances", "Actif")
    assert french.expires == "1 mars 2027 10:00"


def test_the_examples_name_the_users_own_services() -> None:
    services = [
        Service.model_validate({"@id": "/api/services/s-1", "reference": "PB-ETH-1001"}),
        Service.model_validate({"@id": "/api/services/s-2", "reference": "PB-WAV-1002"}),
    ]
    base = "https://portal.example/provider"
    examples = curl_examples(base, services)
    assert examples[0].startswith("export PATCHBAY_TOKEN=")
    bearer = 'curl -H "Authorization: Bearer $PATCHBAY_TOKEN" '
    assert examples[1:] == [
        f'{bearer}"{base}/api/services"',
        f'{bearer}"{base}/api/services?search=PB-ETH-1001"',
        f'{bearer}"{base}/api/services?search=PB-WAV-1002"',
        f'{bearer}"{base}/api/services/s-1"',
        f'{bearer}"{base}/api/maintenances"',
    ]
    assert curl_examples(base, []) == [examples[0], examples[1], examples[-1]]
