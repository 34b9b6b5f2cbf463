"""The invoicing screen's data (spec 2 and 3: Invoices): the list's filters, sorts and pages, and
the tiles and chart of ``/api/invoices/summary``, against values computed by hand on a fixed set
of invoices. Access as for every invoice route (spec 6), scoped to the reader's companies."""

import uuid
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import httpx
import pytest
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.billing.routes import invoice_summary
from portal.provider.platform.models import Invoice, InvoiceStatus, InvoiceType
from tests.provider.conftest import SignIn, World

INVOICES = "/api/invoices"
SUMMARY = "/api/invoices/summary"
TODAY = date(2026, 6, 15)


@dataclass(frozen=True)
class Row:
    reference: str
    company: str
    type: InvoiceType
    invoiced: date
    due: date
    with_tax: str
    paid: str

    @property
    def is_paid(self) -> bool:
        return Decimal(self.paid) == Decimal(self.with_tax)


INV, CRED = InvoiceType.INVOICE, InvoiceType.CREDIT
ROWS = (
    # Due today: unpaid, not overdue.
    Row("INV-A1", "acme", INV, date(2026, 6, 1), date(2026, 6, 15), "1200.00", "0"),
    # Due yesterday: overdue.
    Row("INV-A2", "acme", INV, date(2026, 5, 1), date(2026, 6, 14), "600.10", "0"),
    # Partly paid and overdue: 600.00 left.
    Row("INV-A3", "acme", INV, date(2026, 4, 1), date(2026, 5, 1), "1000.00", "400.00"),
    Row("INV-A4", "acme", INV, date(2026, 3, 1), date(2026, 3, 31), "333.33", "333.33"),
    # A credit note not yet deducted: in the balance, not in the amount due.
    Row("INV-A5", "acme", CRED, date(2026, 5, 20), date(2026, 6, 1), "-120.00", "0"),
    Row("INV-A6", "acme", CRED, date(2026, 2, 10), date(2026, 3, 10), "-50.00", "-50.00"),
    # The day before the chart's 24 months, and their first day.
    Row("INV-A7", "acme", INV, date(2024, 6, 30), date(2024, 7, 30), "999.99", "999.99"),
    Row("INV-A8", "acme", INV, date(2024, 7, 1), date(2024, 7, 31), "10.01", "10.01"),
    # Alice's auxiliary company; the same invoice date as INV-A1.
    Row("INV-B1", "benelux", INV, date(2026, 6, 1), date(2026, 7, 1), "80.00", "0"),
    # Another customer's: overdue, never in Acme's figures.
    Row("INV-G1", "globex", INV, date(2026, 6, 1), date(2026, 6, 1), "5000.00", "0"),
)


@pytest.fixture(scope="module")
def invoices(world: World) -> dict[str, uuid.UUID]:
    world.add_user("gina", "globex", roles=(Role.ACCESS_INVOICES,))
    ids = {}
    with Session(world.engine) as session:
        for row in ROWS:
            paid = Decimal(row.paid)
            invoice = Invoice(
                reference=row.reference,
                company_id=world.companies[row.company],
                type=row.type,
                date_created=row.invoiced,
                date_invoice=row.invoiced,
                date_due=row.due,
                amount=Decimal(row.with_tax),
                amount_with_tax=Decimal(row.with_tax),
                paid=paid,
                is_paid=row.is_paid,
                status=InvoiceStatus.PAID
                if row.is_paid
                else InvoiceStatus.PARTIALLY_PAID
                if paid
                else InvoiceStatus.UNPAID,
            )
            session.add(invoice)
            ids[row.reference] = invoice.id
        session.commit()
    return ids


@pytest.fixture(autouse=True)
def today(monkeypatch: pytest.MonkeyPatch) -> date:
    monkeypatch.setattr(invoice_summary, "business_today", lambda: TODAY)
    return TODAY


async def _references(client: httpx.AsyncClient, params: Any = None) -> list[str]:
    response = await client.get(INVOICES, params=params)
    assert response.status_code == 200, response.text
    return [member["reference"] for member in response.json()["hydra:member"]]


# --- who may read -----------------------------------------------------------------------------


async def test_the_summary_needs_a_session(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID]
) -> None:
    assert (await client.get(SUMMARY)).status_code == 401


@pytest.mark.parametrize("reader", ["bob", "claire"])
async def test_the_summary_needs_access_to_invoice(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID], sign_in: SignIn, reader: str
) -> None:
    await sign_in(reader)
    assert (await client.get(SUMMARY)).status_code == 403
    assert (await client.get(INVOICES)).status_code == 403


# --- the tiles --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reader", "balance", "due", "overdue", "unpaid"),
    [
        # 1200.00 + 600.10 + 600.00 + 80.00, less the 120.00 credit note.
        ("alice", "2360.10", "2480.10", "1200.10", 4),
        ("bram", "80.00", "80.00", "0.00", 1),
        ("gina", "5000.00", "5000.00", "5000.00", 1),
        ("support", "7360.10", "7480.10", "6200.10", 5),
        ("admin", "7360.10", "7480.10", "6200.10", 5),
    ],
)
async def test_the_tiles_sum_what_is_left_to_pay_in_the_readers_companies(
    client: httpx.AsyncClient,
    invoices: dict[str, uuid.UUID],
    sign_in: SignIn,
    reader: str,
    balance: str,
    due: str,
    overdue: str,
    unpaid: int,
) -> None:
    await sign_in(reader)
    response = await client.get(SUMMARY)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["@type"] == "InvoiceSummary"
    assert body["currency"] == "EUR"
    assert body["date"] == "2026-06-15"
    assert (body["balance"], body["amountDue"], body["amountOverdue"]) == (balance, due, overdue)
    assert body["nbUnpaidInvoices"] == unpaid


async def test_an_invoice_becomes_overdue_the_day_after_its_due_date(
    client: httpx.AsyncClient,
    invoices: dict[str, uuid.UUID],
    sign_in: SignIn,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await sign_in("alice")
    monkeypatch.setattr(invoice_summary, "business_today", lambda: date(2026, 6, 16))
    # INV-A1, due on the 15th, is now overdue too.
    assert (await client.get(SUMMARY)).json()["amountOverdue"] == "2400.10"
    monkeypatch.setattr(invoice_summary, "business_today", lambda: date(2026, 6, 14))
    # INV-A2, due on the 14th, is not overdue on that day.
    assert (await client.get(SUMMARY)).json()["amountOverdue"] == "600.00"


# --- the chart --------------------------------------------------------------------------------


async def test_the_chart_gives_24_months_invoiced_and_paid(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID], sign_in: SignIn
) -> None:
    await sign_in("alice")
    months = (await client.get(SUMMARY)).json()["months"]
    assert len(months) == 24
    assert months[0]["month"] == "2024-07"
    assert months[-1]["month"] == "2026-06"
    filled = {month["month"]: (month["invoiced"], month["paid"]) for month in months}
    assert {key: value for key, value in filled.items() if value != ("0.00", "0.00")} == {
        "2024-07": ("10.01", "10.01"),  # INV-A7 of 30 June 2024 is one day too old
        "2026-02": ("-50.00", "-50.00"),
        "2026-03": ("333.33", "333.33"),
        "2026-04": ("1000.00", "400.00"),
        "2026-05": ("480.10", "0.00"),  # 600.10 invoiced, 120.00 credited
        "2026-06": ("1280.00", "0.00"),  # Acme's and Benelux's, not Globex's
    }


# --- the list's filters, sorts and pages ------------------------------------------------------

NEWEST_FIRST = [
    "INV-B1",  # 1 June 2026, like INV-A1: the reference breaks the tie, in the same direction
    "INV-A1",
    "INV-A5",
    "INV-A2",
    "INV-A3",
    "INV-A4",
    "INV-A6",
    "INV-A8",
    "INV-A7",
]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, NEWEST_FIRST),
        ({"order[dateInvoice]": "desc"}, NEWEST_FIRST),
        ({"order[dateInvoice]": "asc"}, NEWEST_FIRST[::-1]),
        (
            {"order[dateDue]": "asc"},
            [
                "INV-A7",
                "INV-A8",
                "INV-A6",
                "INV-A4",
                "INV-A3",
                "INV-A5",
                "INV-A2",
                "INV-A1",
                "INV-B1",
            ],
        ),
        (
            {"order[dateDue]": "desc"},
            [
                "INV-B1",
                "INV-A1",
                "INV-A2",
                "INV-A5",
                "INV-A3",
                "INV-A4",
                "INV-A6",
                "INV-A8",
                "INV-A7",
            ],
        ),
        ({"isPaid": "0"}, ["INV-B1", "INV-A1", "INV-A5", "INV-A2", "INV-A3"]),
        ({"isPaid": "1"}, ["INV-A4", "INV-A6", "INV-A8", "INV-A7"]),
        ({"type": "credit"}, ["INV-A5", "INV-A6"]),
        ({"type": "invoice", "isPaid": "false"}, ["INV-B1", "INV-A1", "INV-A2", "INV-A3"]),
        ({"reference": "a"}, [ref for ref in NEWEST_FIRST if "A" in ref]),
        ({"reference": "%"}, []),
        ({"dateDue[after]": "2026-06-14", "dateDue[before]": "2026-06-15"}, ["INV-A1", "INV-A2"]),
        ({"dateDue[after]": "2026-07-01"}, ["INV-B1"]),
        ({"dateDue[before]": "2024-07-30"}, ["INV-A7"]),
        ({"itemsPerPage": "25"}, NEWEST_FIRST),
        ([("order[dateInvoice]", "asc"), ("order[dateInvoice]", "desc")], NEWEST_FIRST[::-1]),
        ({"order[reference]": "desc"}, sorted(NEWEST_FIRST, reverse=True)),
    ],
)
async def test_the_list_filters_and_sorts_across_the_readers_companies(
    client: httpx.AsyncClient,
    invoices: dict[str, uuid.UUID],
    sign_in: SignIn,
    params: Any,
    expected: list[str],
) -> None:
    await sign_in("alice")
    assert await _references(client, params) == expected


@pytest.mark.parametrize("size", [1, 2, 4, 10])
@pytest.mark.parametrize("order", [{}, {"order[dateDue]": "asc"}, {"order[amount]": "desc"}])
async def test_pages_follow_each_other_without_gap_or_repeat(
    client: httpx.AsyncClient,
    invoices: dict[str, uuid.UUID],
    sign_in: SignIn,
    size: int,
    order: dict[str, str],
) -> None:
    await sign_in("alice")
    whole = await _references(client, {**order, "itemsPerPage": "25"})
    pages: list[str] = []
    for number in range(1, -(-len(whole) // size) + 1):
        response = await client.get(
            INVOICES, params={**order, "itemsPerPage": size, "page": number}
        )
        assert response.json()["hydra:totalItems"] == len(whole) == 9
        pages += [member["reference"] for member in response.json()["hydra:member"]]
    assert pages == whole
    beyond = {**order, "itemsPerPage": size, "page": len(whole) + 1}
    assert await _references(client, beyond) == []


async def test_staff_pages_every_company(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID], sign_in: SignIn
) -> None:
    await sign_in("support")
    assert await _references(client, {"itemsPerPage": 3, "page": 1}) == [
        "INV-G1",
        "INV-B1",
        "INV-A1",
    ]
    response = await client.get(INVOICES, params={"itemsPerPage": 3, "page": 4})
    assert response.json()["hydra:totalItems"] == 10
    assert [member["reference"] for member in response.json()["hydra:member"]] == ["INV-A7"]
