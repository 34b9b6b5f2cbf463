"""The invoicing screen's calls (spec 2 and 7): the summary's tiles and chart, and amounts read
as exact decimals whatever the provider writes (httpx.MockTransport)."""

from datetime import date
from decimal import Decimal

import httpx

from portal.client import ProviderClient

BASE_URL = "http://provider.test/provider"
SUMMARY = b"""{
    "@type": "InvoiceSummary", "currency": "EUR", "date": "2026-06-15",
    "balance": "2360.10", "amountDue": 2480.10, "amountOverdue": "1200.10",
    "nbUnpaidInvoices": 4,
    "months": [{"month": "2026-05", "invoiced": "480.10", "paid": "0.00"},
               {"month": "2026-06", "invoiced": 12345678901234567.89, "paid": 0}]
}"""


def client_answering(requests: list[httpx.Request], body: bytes) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return httpx.Response(200, content=body, headers={"Content-Type": "application/ld+json"})

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_the_summary_reads_tiles_and_months_as_decimals() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, SUMMARY) as client:
        summary = await client.invoices.summary()
    assert requests[0].method == "GET"
    assert requests[0].url.path == "/provider/api/invoices/summary"
    assert summary.date == date(2026, 6, 15)
    assert (summary.balance, summary.amount_due, summary.amount_overdue) == (
        Decimal("2360.10"),
        Decimal("2480.10"),
        Decimal("1200.10"),
    )
    assert summary.nb_unpaid_invoices == 4
    assert [month.month for month in summary.months] == ["2026-05", "2026-06"]
    # A JSON number is read digit for digit: as a float it would be 12345678901234568.
    assert summary.months[1].invoiced == Decimal("12345678901234567.89")
    assert sum((month.invoiced for month in summary.months), Decimal(0)) == Decimal(
        "12345678901235047.99"
    )


async def test_the_list_sends_the_screens_page_sizes_sorts_and_includes() -> None:
    requests: list[httpx.Request] = []
    body = b'{"hydra:member": [], "hydra:totalItems": 0}'
    async with client_answering(requests, body) as client:
        await client.invoices.list(
            page=3, items_per_page=25, order={"dateDue": "asc"}, includes=("company",)
        )
    assert requests[0].url.params.multi_items() == [
        ("page", "3"),
        ("itemsPerPage", "25"),
        ("order[dateDue]", "asc"),
        ("includes[]", "company"),
    ]
