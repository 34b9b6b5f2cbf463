"""Invoice PDFs the provider generates (issue 12, docs/decisions/invoice-pdfs.md): a real PDF
in the customer's language with both parties, the number, dates, lines, amounts and VAT rate,
written on the first download and then served from disk; scoped like every invoice route."""

import io
import uuid
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from pypdf import PdfReader
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.billing.invoice_documents import generated_pdf_path
from portal.provider.platform.models import (
    Company,
    Invoice,
    InvoiceLine,
    InvoiceStatus,
    InvoiceType,
)
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATA_DIR", str(directory))
        get_settings.cache_clear()
        yield directory
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def invoices(world: World, data_dir: Path) -> dict[str, uuid.UUID]:
    world.add_user("gina", "globex", roles=(Role.ACCESS_INVOICES,))
    ids = {}
    with Session(world.engine) as session:
        acme = session.get_one(Company, world.companies["acme"])
        acme.language, acme.street, acme.postal_code = "fr", "27 avenue des Câbles", "92100"
        acme.city, acme.country = "Boulogne-Billancourt", "France"
        globex = session.get_one(Company, world.companies["globex"])
        globex.street, globex.city, globex.country = "100 Fibre Lane", "London", "United Kingdom"
        rows = [
            ("FA202606-00042", "acme", InvoiceType.INVOICE, ("100.00", "23.45"), "148.14"),
            ("AV202606-00007", "globex", InvoiceType.CREDIT, ("-45.00",), "-45.00"),
        ]
        for reference, company, kind, lines, with_tax in rows:
            invoice_id = uuid.uuid4()
            amounts = [Decimal(line) for line in lines]
            session.add(
                Invoice(
                    id=invoice_id,
                    reference=reference,
                    company_id=world.companies[company],
                    type=kind,
                    date_created=date(2026, 6, 1),
                    date_invoice=date(2026, 6, 1),
                    date_due=date(2026, 7, 1),
                    date_start=date(2026, 6, 1),
                    date_end=date(2026, 6, 30),
                    amount=sum(amounts, Decimal(0)),
                    amount_with_tax=Decimal(with_tax),
                    status=InvoiceStatus.UNPAID,
                    pdf_path=generated_pdf_path(invoice_id),
                    pdf_name=f"{reference}.pdf",
                    lines=[
                        InvoiceLine(label=f"Ethernet – PB-ETH-{index}", amount=amount)
                        for index, amount in enumerate(amounts, start=1001)
                    ],
                )
            )
            ids[reference] = invoice_id
        session.commit()
    return ids


def _text(pdf: bytes) -> str:
    assert pdf.startswith(b"%PDF-")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.replace("\u202f", " ").replace("\xa0", " ").split())


async def test_a_french_customers_invoice_is_a_real_pdf_in_french(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID], sign_in: SignIn, data_dir: Path
) -> None:
    await sign_in("alice")
    invoice_id = invoices["FA202606-00042"]
    response = await client.get(f"/api/invoices/{invoice_id}/pdf")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == 'attachment; filename="FA202606-00042.pdf"'
    text = _text(response.content)
    for expected in (
        "Patchbay",
        "12 rue des Répartiteurs, 75011 Paris, France",
        "Facture FA202606-00042",
        "Acme Networks",
        "27 avenue des Câbles",
        "92100 Boulogne-Billancourt",
        "1 juin 2026",  # date of the invoice
        "1 juillet 2026",  # due date
        "Ethernet – PB-ETH-1001 100,00 €",
        "Ethernet – PB-ETH-1002 23,45 €",
        "Total HT 123,45 €",
        "TVA 20 % 24,69 €",
        "Total TTC 148,14 €",
        "Reste à payer 148,14 €",
    ):
        assert expected in text, expected
    # Kept for the next download.
    stored = data_dir / "documents" / "invoices" / f"{invoice_id}.pdf"
    assert stored.read_bytes() == response.content
    assert (await client.get(f"/api/invoices/{invoice_id}/pdf")).content == response.content


async def test_an_english_customers_credit_note_says_so(
    client: httpx.AsyncClient, invoices: dict[str, uuid.UUID], sign_in: SignIn
) -> None:
    await sign_in("gina")
    response = await client.get(f"/api/invoices/{invoices['AV202606-00007']}/pdf")
    assert response.status_code == 200
    text = _text(response.content)
    for expected in (
        "Credit note AV202606-00007",
        "Globex",
        "100 Fibre Lane",
        "1 June 2026",
        "Total excl. tax -€45.00",
        "reverse charge",
        "This credit note will be deducted from your next invoice.",
    ):
        assert expected in text, expected


@pytest.mark.parametrize(
    ("reader", "reference", "status"),
    [
        (None, "FA202606-00042", 401),
        ("bob", "FA202606-00042", 403),
        ("claire", "AV202606-00007", 403),
        ("alice", "AV202606-00007", 404),
        ("gina", "FA202606-00042", 404),
        ("support", "AV202606-00007", 200),
    ],
)
async def test_only_a_reader_of_the_invoice_gets_its_pdf(
    client: httpx.AsyncClient,
    invoices: dict[str, uuid.UUID],
    sign_in: SignIn,
    reader: str | None,
    reference: str,
    status: int,
) -> None:
    if reader:
        await sign_in(reader)
    response = await client.get(f"/api/invoices/{invoices[reference]}/pdf")
    assert response.status_code == status
