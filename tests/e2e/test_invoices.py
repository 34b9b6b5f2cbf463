"""Invoicing (spec 2, Invoices): tiles, the 24-month chart, filters bound to the URL, the due
range that always starts with its earlier date, real PDFs, and French formats."""

import re
from datetime import date, timedelta

from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.e2e.helpers import choose_language, log_in_as

ALICE = "alice@acme-networks.test"


def _open_invoicing(page: Page, query: str = "") -> None:
    log_in_as(page, ALICE, f"/invoices{query}")
    expect(page.get_by_role("heading", name="Invoicing")).to_be_visible()
    _settled(page)


def _settled(page: Page) -> None:
    """The list has answered: no longer busy, its rows or 'No result' shown."""
    expect(page.locator("[aria-busy='true']")).to_have_count(0)
    expect(page.get_by_role("table", name="Invoices").get_by_role("row").nth(1)).to_be_visible()


def _rows(page: Page, table: str = "Invoices"):
    return page.get_by_role("table", name=table).get_by_role("row")


def test_tiles_and_chart_sum_up_the_companies_invoices(page: Page) -> None:
    _open_invoicing(page)
    for test_id in ("tile-balance", "tile-amount-due", "tile-amount-overdue"):
        expect(page.get_by_test_id(test_id)).to_contain_text("€")
    expect(page.get_by_test_id("tile-to-pay")).to_have_text(re.compile(r"^\d+$"))
    chart = page.get_by_test_id("invoices-chart")
    # Plotly draws 24 months of two series as SVG bars once its lazy bundle (1 MiB) arrived.
    expect(chart.locator(".legendtext")).to_have_text(
        ["Amount invoiced", "Amount paid"], timeout=30_000
    )
    expect(chart.locator("g.xtick")).to_have_count(24)


def test_filters_live_in_the_url_and_come_back_on_reload_and_back(page: Page) -> None:
    _open_invoicing(page)
    page.get_by_role("combobox", name="Type").click()
    page.get_by_role("option", name="Credit note").click()
    expect(page).to_have_url(re.compile(r"type=credit"))
    _settled(page)
    expect(_rows(page).nth(1)).to_contain_text("Credit note")
    expect(page.get_by_role("table", name="Invoices")).not_to_contain_text(
        re.compile(r"\bInvoice\b")
    )

    page.get_by_role("combobox", name="Payment").click()
    page.get_by_role("option", name="Paid", exact=True).click()
    expect(page).to_have_url(re.compile(r"type=credit.*isPaid=1|isPaid=1.*type=credit"))

    page.reload()
    _settled(page)
    expect(page.get_by_role("combobox", name="Type")).to_have_text("Credit note")
    expect(page.get_by_role("combobox", name="Payment")).to_have_text("Paid")

    page.get_by_role("link", name="Services").first.click()
    expect(page).to_have_url(re.compile(r"/services/?$"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"type=credit"))
    _settled(page)
    expect(page.get_by_role("combobox", name="Type")).to_have_text("Credit note")


def test_a_tile_opens_the_list_it_sums_up(page: Page) -> None:
    _open_invoicing(page)
    page.get_by_test_id("tile-amount-due").click()
    expect(page).to_have_url(re.compile(r"type=invoice"))
    expect(page).to_have_url(re.compile(r"isPaid=0"))
    _settled(page)
    expect(page.get_by_role("combobox", name="Payment")).to_have_text("Unpaid")


def test_a_due_range_entered_backwards_starts_with_its_earlier_date(page: Page) -> None:
    _open_invoicing(page)
    later, earlier = date.today(), date.today() - timedelta(days=200)
    page.get_by_label("Due from").fill(later.isoformat())
    expect(page).to_have_url(re.compile(f"dateDueAfter={later.isoformat()}"))
    _settled(page)
    page.get_by_label("Due until").fill(earlier.isoformat())
    expect(page).to_have_url(
        re.compile(f"dateDueAfter={earlier.isoformat()}&dateDueBefore={later.isoformat()}")
    )
    expect(page.get_by_label("Due from")).to_have_value(earlier.isoformat())
    expect(page.get_by_label("Due until")).to_have_value(later.isoformat())


def _count(page: Page) -> str:
    expect(page.get_by_test_id("invoices-count")).to_have_text(re.compile(r"^\d+ "))
    return page.get_by_test_id("invoices-count").inner_text()


def test_a_due_range_backwards_in_a_shared_link_lists_what_it_would_typed(page: Page) -> None:
    later, earlier = date.today(), date.today() - timedelta(days=200)
    _open_invoicing(page, f"?dateDueAfter={earlier.isoformat()}&dateDueBefore={later.isoformat()}")
    in_order = _count(page)
    assert not in_order.startswith("0 ")
    page.goto(f"/invoices?dateDueAfter={later.isoformat()}&dateDueBefore={earlier.isoformat()}")
    expect(page.get_by_label("Due from")).to_have_value(earlier.isoformat())
    expect(page.get_by_label("Due until")).to_have_value(later.isoformat())
    _settled(page)
    assert _count(page) == in_order


def test_an_invoice_pdf_is_a_real_pdf_with_its_number(page: Page) -> None:
    _open_invoicing(page)
    first = _rows(page).nth(1)
    reference = first.get_by_role("rowheader").inner_text().strip()
    with page.expect_download() as download_info:
        first.get_by_role("link", name=f"Download {reference}").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    text = "".join(pdf_page.extract_text() for pdf_page in PdfReader(download.path()).pages)
    assert reference in text


def test_amounts_and_dates_read_the_french_way(page: Page) -> None:
    _open_invoicing(page)
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Facturation")).to_be_visible()
    # "1 234,56 €": a comma before the cents and the euro sign after the amount.
    expect(page.get_by_test_id("tile-amount-due")).to_have_text(
        re.compile(r"^-?[\d\u202f\u00a0 ]+,\d\d\s€$")
    )
    row = _rows(page, "Factures").nth(1)
    expect(row).to_contain_text(re.compile(r"\d+,\d\d\s€"))
    expect(row).to_contain_text(re.compile(r"(Payée|Non payée|Payé|Non payé)"))
    expect(page.get_by_test_id("invoices-chart").locator(".legendtext")).to_have_text(
        ["Montant facturé", "Montant payé"], timeout=30_000
    )
