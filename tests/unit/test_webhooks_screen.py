"""The Webhooks screen's pieces (issue 51): the client's calls as the provider contract spells
them, and the rows as the page shows them in either language."""

import json

import httpx

from portal.client import ProviderClient
from portal.client.models import Webhook, WebhookDelivery
from portal.pages.webhooks.models import DeliveryRow, WebhookRow

BASE_URL = "http://provider.test/provider"
WEBHOOK = {
    "@id": "/api/webhooks/w-1",
    "@type": "Webhook",
    "id": "w-1",
    "company": "/api/companies/c-1",
    "url": "https://noc.example.com/hooks",
    "description": "NOC",
    "eventTypes": ["maintenance.scheduled", "ticket.updated"],
    "enabled": False,
    "disabledReason": "failing",
    "createdAt": "2026-12-01T09:00:00Z",
    "previousSecretExpiresAt": None,
}
DELIVERY = {
    "@id": "/api/webhooks/w-1/deliveries/7",
    "@type": "WebhookDelivery",
    "id": "7",
    "messageId": "msg_1",
    "eventType": "ping",
    "state": "pending",
    "createdAt": "2026-12-01T09:00:00Z",
    "attempts": 2,
    "lastAttemptAt": "2026-12-01T09:00:10Z",
    "nextAttemptAt": "2026-12-01T09:00:30Z",
    "responseStatus": None,
    "latencyMs": None,
    "responseExcerpt": "",
    "error": "No answer within 10 s.",
    "payload": "{}",
}


def client_answering(requests: list[httpx.Request], answer: httpx.Response) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return answer

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_an_endpoint_is_registered_with_its_url_events_and_description() -> None:
    requests: list[httpx.Request] = []
    answer = httpx.Response(201, json={**WEBHOOK, "secret": "whsec_abc"})
    client = client_answering(requests, answer)
    made = await client.webhooks.create(
        "https://noc.example.com/hooks", ["maintenance.scheduled"], "NOC"
    )
    [request] = requests
    assert (request.method, request.url.path) == ("POST", "/provider/api/webhooks")
    assert json.loads(request.content) == {
        "url": "https://noc.example.com/hooks",
        "eventTypes": ["maintenance.scheduled"],
        "description": "NOC",
    }
    assert made.secret == "whsec_abc"


async def test_the_other_calls_name_their_endpoint() -> None:
    requests: list[httpx.Request] = []
    client = client_answering(requests, httpx.Response(200, json=WEBHOOK))
    await client.webhooks.rotate_secret("w-1")
    await client.webhooks.set_enabled("w-1", True)
    assert [(r.method, r.url.path) for r in requests] == [
        ("POST", "/provider/api/webhooks/w-1/rotate_secret"),
        ("PATCH", "/provider/api/webhooks/w-1"),
    ]
    assert json.loads(requests[1].content) == {"enabled": True}
    requests.clear()
    client = client_answering(requests, httpx.Response(202, json=DELIVERY))
    sent = await client.webhooks.send_test("w-1")
    assert sent.message_id == "msg_1"
    assert requests[0].url.path == "/provider/api/webhooks/w-1/test"


def test_the_rows_read_in_the_users_language() -> None:
    webhook = Webhook.model_validate(WEBHOOK)
    row = WebhookRow.of(webhook, "fr", "Europe/Paris")
    assert row.events == "Maintenance planifiée, Ticket modifié"
    assert row.failing
    assert not row.enabled
    assert row.created == "1 déc. 2026 10:00"
    delivery = DeliveryRow.of(WebhookDelivery.model_validate(DELIVERY), "en", "UTC")
    assert (delivery.event, delivery.state_label) == ("Test event", "Waiting")
    assert delivery.answer == "No answer within 10 s."
    assert delivery.status == delivery.latency == ""
    assert delivery.attempts == 2
