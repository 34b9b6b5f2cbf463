"""Integration API: invoices and credit notes with their lines, and their PDFs."""

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session, select

from portal.provider.platform.db import preload
from portal.provider.platform.models import Invoice
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import (
    PDF,
    add_service_type,
    counts,
    put,
    token_headers,
    violations,
)

INVOICE = {
    "reference": "INV-1",
    "company": "C-ACME",
    "type": "invoice",
    "dateInvoice": "2026-10-01",
    "dateDue": "2026-10-31",
    "period": "2026-10",
    "amount": "1250.00",
    "amountWithTax": "1500.00",
    "status": "unpaid",
    "lines": [
        {"label": "IP transit 10G", "amount": "1000.00", "service": "PB-1"},
        {"label": "Cross-connect", "amount": "250.00"},
    ],
}
CREDIT = {
    **INVOICE,
    "reference": "CRN-1",
    "type": "credit",
    "amount": "100.00",
    "amountWithTax": "120.00",
    "status": "paid",
    "lines": [{"label": "SLA credit", "amount": "100.00", "service": "PB-1"}],
}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(get_settings(), "data_dir", tmp_path)
        yield tmp_path


@pytest.fixture(scope="module")
def catalogue(world: World) -> None:
    add_service_type(world.engine)


@pytest.fixture
async def headers(client: httpx.AsyncClient, world: World, catalogue: None) -> dict[str, str]:
    headers = token_headers(world)
    await counts(client, "companies", [{"reference": "C-ACME", "name": "Acme Networks"}], headers)
    service = {"reference": "PB-1", "company": "C-ACME", "type": "ip_transit", "status": "active"}
    await counts(client, "services", [service], headers)
    return headers


def invoice(world: World, reference: str) -> Invoice:
    with Session(world.engine) as session:
        statement = select(Invoice).where(Invoice.reference == reference)
        return session.exec(statement.options(*preload(Invoice.lines))).one()


async def test_invoices_and_credit_notes_are_created_updated_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    assert await counts(client, "invoices", [INVOICE, CREDIT], headers) == (2, 0, 0)
    stored = invoice(world, "INV-1")
    assert stored.company_id == world.companies["acme"]
    assert stored.amount == Decimal("1250.00")
    assert stored.is_paid is False
    assert stored.date_created.isoformat() == "2026-10-01"
    assert sorted((line.label, line.amount) for line in stored.lines) == [
        ("Cross-connect", Decimal("250.00")),
        ("IP transit 10G", Decimal("1000.00")),
    ]
    assert all(line.service_id for line in stored.lines if line.label == "IP transit 10G")
    credit = invoice(world, "CRN-1")
    assert (credit.type, credit.is_paid) == ("credit", True)

    assert await counts(client, "invoices", [INVOICE, CREDIT], headers) == (0, 0, 2)
    paid = {**INVOICE, "status": "paid", "paid": "1500.00"}
    assert await counts(client, "invoices", [paid, CREDIT], headers) == (0, 1, 1)
    assert invoice(world, "INV-1").is_paid is True
    one_line = {**paid, "lines": [{"label": "All in one", "amount": "1250"}]}
    assert await counts(client, "invoices", [one_line], headers) == (0, 1, 0)
    assert [line.label for line in invoice(world, "INV-1").lines] == ["All in one"]


async def test_invoice_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    body = [
        {**INVOICE, "reference": "INV-OK"},
        {**INVOICE, "reference": "INV-BAD-1", "amount": "12.345"},
        {
            **INVOICE,
            "reference": "INV-BAD-2",
            "lines": [{"label": "x", "amount": "1", "service": "PB-404"}],
        },
        {**INVOICE, "reference": "INV-BAD-3", "type": "quote", "dateDue": None},
        # Issue 18, item 9: a number was read as seconds since 1970 (20261001: 1970-08-23).
        {**INVOICE, "reference": "INV-BAD-4", "dateInvoice": 20261001, "dateStart": "0"},
    ]
    assert violations(await put(client, "invoices", body, headers)) == [
        "[1].amount",
        "[2].lines[0].service",
        "[3].dateDue",
        "[3].type",
        "[4].dateInvoice",
        "[4].dateStart",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(Invoice).where(Invoice.reference == "INV-OK")).first() is None


async def test_the_pdf_is_uploaded(
    client: httpx.AsyncClient,
    world: World,
    headers: dict[str, str],
    data_dir: Path,
    sign_in: SignIn,
) -> None:
    await counts(client, "invoices", [INVOICE], headers)
    files = {"file": ("INV-1.pdf", PDF, "application/pdf")}
    url = "/api/integration/invoices/INV-1/pdf"
    response = await client.put(url, files=files, headers=headers)
    assert response.status_code == 201, response.text
    again = await client.put(url, files=files, headers=headers)
    assert again.json()["status"] == "unchanged"
    stored = invoice(world, "INV-1")
    assert stored.pdf_name == "INV-1.pdf"
    assert (data_dir / (stored.pdf_path or "")).read_bytes() == PDF
    # The portal's read route serves it (to a person: a token writes, it does not read).
    await sign_in("admin")
    download = await client.get(f"/api/invoices/{stored.id}/pdf")
    assert download.status_code == 200, download.text
    assert download.content == PDF
    missing = await client.put(
        "/api/integration/invoices/INV-404/pdf", files=files, headers=headers
    )
    assert missing.status_code == 404
