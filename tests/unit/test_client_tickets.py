"""The tickets calls: what goes on the wire and how the answers are read (httpx.MockTransport)."""

import httpx

from portal.client import ProviderClient
from portal.client.models import TicketFilters

BASE_URL = "http://provider.test/provider"
TICKET_ID = "5b7d0c1e-2f3a-4b5c-8d9e-0a1b2c3d4e5f"
TICKET = {
    "@id": f"/api/tickets/{TICKET_ID}",
    "@type": "Ticket",
    "id": TICKET_ID,
    "number": 100231,
    "name": "INC0100231",
    "dateCreated": "2026-11-20T09:52:00Z",
    "subject": "Packet loss",
    "status": "closed",
    "statusLabel": "Closed",
    "state": "closed",
    "priority": "high",
    "priorityLabel": "High",
    "description": "<p>Loss</p>",
    "shortDescription": "Loss",
    "requesterEmail": "alice@acme-networks.test",
    "technicianEmail": None,
    "accountName": "Acme Networks",
    "type": "Incident",
    "serviceReference": "PB-IPT-1",
    "service": "/api/services/abc",
    "company": "/api/companies/c1",
    "attachments": [
        {"id": "a1", "size": 12, "filename": "trace.log", "downloadUrl": "/api/tickets/x/a1"}
    ],
}


async def test_the_list_sends_the_filters_paging_and_order() -> None:
    seen: list[httpx.URL] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        body = {"hydra:member": [TICKET], "hydra:totalItems": 1}
        return httpx.Response(200, json=body)

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        filters = TicketFilters(id=" 100231 ", statuses=["open", "closed"], subject="loss")
        page = await client.tickets.list(
            filters, page=2, items_per_page=24, order={"dateCreated": "desc"}
        )
    query = seen[0].params
    assert seen[0].path == "/provider/api/tickets"
    assert query.get_list("status[]") == ["open", "closed"]
    assert query["id"] == "100231"
    assert query["subject"] == "loss"
    assert query["page"] == "2"
    assert query["itemsPerPage"] == "24"
    assert query["order[dateCreated]"] == "desc"
    ticket = page.items[0]
    assert ticket.id == TICKET_ID
    assert ticket.status == "closed"
    assert ticket.attachments[0].download_url == "/api/tickets/x/a1"
    assert ticket.type == "Incident"


async def test_a_description_is_sanitised_whatever_the_provider_sent() -> None:
    """Issue 47, item 8: another provider's ticket HTML is inlined only once cleaned."""
    hostile = (
        '<p onclick="alert(1)">Loss <a href="javascript:alert(2)">here</a>'
        '<img src="https://evil.test/t.png" onerror="alert(3)"></p>'
        "<script>alert(4)</script><style>body { display: none }</style>"
        '<iframe src="https://evil.test"></iframe><a href="https://noc.test">NOC</a>'
    )

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={**TICKET, "description": hostile})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        ticket = await client.tickets.get(TICKET_ID)

    assert ticket.description == (
        '<p>Loss <a rel="noopener noreferrer">here</a></p>'
        '<a href="https://noc.test" rel="noopener noreferrer">NOC</a>'
    )


async def test_a_list_without_descriptions_reads_as_none() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        item = {key: value for key, value in TICKET.items() if key != "description"}
        return httpx.Response(200, json={"hydra:member": [item], "hydra:totalItems": 1})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        page = await client.tickets.list()

    assert page.items[0].description is None
