"""The tickets calls: what goes on the wire and how the answers are read (httpx.MockTransport)."""

import datetime as dt
import io
import json

import httpx
import pytest

from portal.client import ProviderClient, ProviderError
from portal.client.models import NewTicket, TicketFilters

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


MESSAGE = {
    "@id": f"/api/tickets/{TICKET_ID}/messages/m1",
    "id": "m1",
    "author": "Alice Martin",
    "authorType": "provider",
    "body": '<p onclick="alert(1)">Fixed <script>alert(2)</script></p>',
    "created": "2026-11-21T10:00:00Z",
    "attachments": [
        {
            "id": "f1",
            "name": "trace.pcap",
            "size": 2048,
            "contentType": "application/vnd.tcpdump.pcap",
            "url": f"/api/tickets/{TICKET_ID}/attachments/f1",
        }
    ],
}


async def test_a_new_ticket_is_posted_without_what_was_not_chosen() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(
            201, json={**TICKET, "status": "open"}, headers={"Location": "/api/tickets/x"}
        )

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        ticket = await client.tickets.create(
            NewTicket(
                subject="Loss",
                description="*Since 9:00*",
                type="incident",
                priority="high",
                service="abc",
            )
        )

    assert sent[0].method == "POST"
    assert sent[0].url.path == "/provider/api/tickets"
    assert json.loads(sent[0].content) == {
        "subject": "Loss",
        "description": "*Since 9:00*",
        "type": "incident",
        "priority": "high",
        "service": "abc",
    }
    assert ticket.status == "open"


async def test_the_new_fields_of_a_ticket_are_read() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        body = {
            **TICKET,
            "hasUnreadReply": True,
            "canWrite": False,
            "canClose": False,
            "reopenableUntil": "2026-12-04T09:00:00Z",
        }
        return httpx.Response(200, json=body)

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        ticket = await client.tickets.get(TICKET_ID)

    assert ticket.has_unread_reply is True
    assert (ticket.can_write, ticket.can_close) == (False, False)
    assert ticket.reopenable_until == dt.datetime(2026, 12, 4, 9, tzinfo=dt.UTC)


async def test_messages_are_read_sanitised_with_their_files() -> None:
    seen: list[httpx.URL] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        return httpx.Response(200, json={"hydra:member": [MESSAGE], "hydra:totalItems": 1})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        page = await client.tickets.latest_messages(TICKET_ID)

    assert len(seen) == 1
    assert seen[0].path == f"/provider/api/tickets/{TICKET_ID}/messages"
    assert seen[0].params["itemsPerPage"] == "100"
    message = page.items[0]
    assert message.author_type == "provider"
    assert message.body == "<p>Fixed </p>"
    assert message.attachments[0].name == "trace.pcap"
    assert message.attachments[0].url.endswith("/attachments/f1")


async def test_the_latest_messages_of_a_long_conversation_are_its_last_ones() -> None:
    """250 messages by pages of 100: the last page (50) after the one before it (100)."""
    total = 250
    asked: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        asked.append(str(page))
        start = (page - 1) * 100
        members = [{**MESSAGE, "id": str(n)} for n in range(start, min(start + 100, total))]
        return httpx.Response(200, json={"hydra:member": members, "hydra:totalItems": total})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        page = await client.tickets.latest_messages(TICKET_ID)

    assert asked == ["1", "3", "2"]
    assert [message.id for message in page.items] == [str(n) for n in range(150, 250)]
    assert page.total == total


async def test_a_reply_and_its_file_are_posted() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        if request.url.path.endswith("/messages"):
            return httpx.Response(201, json={**MESSAGE, "authorType": "customer"})
        return httpx.Response(201, json=MESSAGE["attachments"][0])

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        message = await client.tickets.post_message(TICKET_ID, "**Still down**")
        stored = await client.tickets.attach(
            TICKET_ID,
            "trace.pcap",
            io.BytesIO(b"\xd4\xc3\xb2\xa1"),
            "application/octet-stream",
            message=message.id,
        )

    assert json.loads(sent[0].content) == {"body": "**Still down**"}
    upload = sent[1]
    assert upload.url.path == f"/provider/api/tickets/{TICKET_ID}/attachments"
    assert upload.headers["Content-Type"].startswith("multipart/form-data")
    content = upload.read()
    assert b'name="file"; filename="trace.pcap"' in content
    assert b'name="message"\r\n\r\nm1' in content
    assert stored.size == 2048


async def test_a_file_of_the_ticket_itself_names_no_message() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(201, json=MESSAGE["attachments"][0])

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        await client.tickets.attach(TICKET_ID, "a.txt", b"text", "text/plain")

    assert b'name="message"' not in sent[0].read()


async def test_close_reopen_and_read_are_sent_as_the_contract_says() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        if request.method == "PUT":
            return httpx.Response(204)
        return httpx.Response(200, json={**TICKET, "status": json.loads(request.content)["status"]})

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        closed = await client.tickets.set_status(TICKET_ID, "closed")
        reopened = await client.tickets.set_status(TICKET_ID, "open")
        await client.tickets.mark_read(TICKET_ID)

    assert [request.method for request in sent] == ["PATCH", "PATCH", "PUT"]
    assert sent[0].headers["Content-Type"] == "application/merge-patch+json"
    assert (closed.status, reopened.status) == ("closed", "open")
    assert sent[2].url.path == f"/provider/api/tickets/{TICKET_ID}/read"


async def test_a_refusal_of_a_closed_ticket_keeps_the_providers_words() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        body = {"status": 409, "detail": "This ticket is closed: reopen it to write."}
        return httpx.Response(409, json=body)

    async with ProviderClient(BASE_URL, transport=httpx.MockTransport(answer)) as client:
        with pytest.raises(ProviderError) as refused:
            await client.tickets.post_message(TICKET_ID, "Hello")

    assert refused.value.code == 409
    assert refused.value.message == "This ticket is closed: reopen it to write."
