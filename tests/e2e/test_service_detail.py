"""Service detail (spec 2): the milestones of a service under construction, the termination
documents of a terminated one, the maintenance dialog, the client-reference field, and a
service of another company answered as missing (DESIGN 4)."""

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import DEMO_PASSWORD, log_in_as

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"


def _open_first(page: Page, email: str, query: str) -> str:
    """Opens the first service of the filtered list; returns its reference."""
    log_in_as(page, email, f"/services{query}")
    link = page.get_by_test_id("service-card").first.get_by_role("link")
    reference = link.inner_text()
    link.click()
    expect(page.get_by_role("heading", level=1, name=reference)).to_be_visible()
    return reference


def test_a_service_under_construction_shows_its_milestones(page: Page) -> None:
    _open_first(page, ALICE, "?status=under_construction")
    expect(page.get_by_role("navigation", name="Breadcrumbs")).to_contain_text("Services")
    milestones = page.get_by_role("list", name="Milestones")
    expect(milestones.get_by_role("listitem")).to_have_count(5)
    expect(milestones).to_contain_text("Order received")
    expect(milestones.locator("[data-completed=true]").first).to_be_visible()
    expect(page.get_by_test_id("termination-documents")).to_have_count(0)
    expect(page.get_by_text("Under construction").first).to_be_visible()


def test_a_terminated_service_offers_its_termination_documents(page: Page, tmp_path: Path) -> None:
    _open_first(page, ALICE, "?status=terminated")
    expect(page.get_by_role("list", name="Milestones")).to_have_count(0)
    documents = page.get_by_test_id("termination-documents")
    expect(documents).to_contain_text("termination-acknowledgement-")
    expect(documents).to_contain_text("equipment-return-")
    link = documents.get_by_role("link").first
    name = link.inner_text().strip()
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename == name
    target = tmp_path / "document.pdf"
    download.save_as(target)
    assert target.read_bytes().startswith(b"%PDF")


def test_order_forms_and_invoices_need_their_access(page: Page) -> None:
    _open_first(page, BOB, "?status=active")
    expect(page.get_by_test_id("handovers")).to_be_visible()
    expect(page.get_by_test_id("order-form")).to_have_count(0)
    expect(page.get_by_test_id("service-invoices")).to_have_count(0)
    expect(page.get_by_label("Client references")).to_have_count(0)


def test_a_reference_master_updates_the_client_references(page: Page) -> None:
    _open_first(page, ALICE, "?status=active")
    field = page.get_by_label("Client references")
    field.fill(" E2E-ONE ,E2E-TWO,, E2E-ONE ")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The client references have been updated.")).to_be_visible()
    expect(field).to_have_value("E2E-ONE, E2E-TWO")
    expect(page.get_by_test_id("more-client-references")).to_have_text("1+")
    page.reload()
    expect(page.get_by_label("Client references")).to_have_value("E2E-ONE, E2E-TWO")


def test_a_refused_edit_says_what_the_provider_refused(page: Page) -> None:
    """Spec 5: twenty client references at most. The provider's 422 names the rule; its
    generic "The data sent is not valid." alone would not say what to change."""
    _open_first(page, ALICE, "?status=active")
    field = page.get_by_label("Client references")
    before = field.input_value()
    field.fill(", ".join(f"E2E-{number}" for number in range(21)))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("A service can have at most 20 client references.")).to_be_visible()
    expect(page.get_by_text("The data sent is not valid.")).to_have_count(0)
    page.reload()
    expect(page.get_by_label("Client references")).to_have_value(before)


def _provider_maintained_service(portal_url: str) -> str:
    """The id of an Acme service that a maintenance impacts, read from the provider itself."""
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        provider.post("/login", json={"username": ALICE, "password": DEMO_PASSWORD})
        listed = provider.get("/api/maintenances", params={"itemsPerPage": 1}).json()
        first = listed["items"][0]["id"]
        return provider.get(f"/api/maintenances/{first}").json()["services"][0]["id"]


def test_the_maintenance_dialog_opens_from_the_table(page: Page, portal_url: str) -> None:
    service_id = _provider_maintained_service(portal_url)
    log_in_as(page, ALICE, f"/services/{service_id}")
    card = page.get_by_test_id("service-maintenances")
    table = card.get_by_role("table", name="Maintenances")
    expect(table.get_by_role("row").nth(1)).to_be_visible()
    expect(table.locator("th[aria-sort]")).to_have_count(3)
    reference = table.get_by_role("row").nth(1).get_by_role("button").first
    reference.click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_test_id("impacted-count")).to_have_text(re.compile(r"\d+ impacted"))
    expect(dialog).to_contain_text(re.compile(r"\d+ hours?"))
    services = dialog.get_by_role("table")
    expect(services.get_by_role("link").first).to_be_visible()
    expect(dialog.locator("a[href^='mailto:']").first).to_be_visible()


def test_another_companys_service_does_not_exist(
    page: Page, browser: Browser, portal_url: str
) -> None:
    other = browser.new_context(base_url=portal_url, locale="en-GB")
    try:
        claire = other.new_page()
        log_in_as(claire, "claire@globex.test", "/services")
        foreign = claire.get_by_test_id("service-card").first.get_by_role("link")
        expect(foreign).to_be_visible()
        foreign_path = foreign.get_attribute("href") or ""
        assert re.fullmatch(r"/services/[0-9a-f-]{36}", foreign_path)
    finally:
        other.close()
    log_in_as(page, ALICE, foreign_path)
    expect(page.get_by_text("This service does not exist or you cannot see it.")).to_be_visible()
    expect(page.get_by_role("navigation", name="Breadcrumbs")).to_have_count(0)
    expect(page.get_by_test_id("service-maintenances")).to_have_count(0)


def test_invoice_access_shows_the_services_invoices_with_their_pdf(page: Page) -> None:
    _open_first(page, ALICE, "?status=active")
    table = page.get_by_test_id("service-invoices").get_by_role("table", name="Invoices")
    first = table.get_by_role("row").nth(1)
    expect(first).to_contain_text("€")
    expect(first).to_contain_text(re.compile(r"Paid|Unpaid"))
    with page.expect_download() as download_info:
        first.get_by_role("link").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    with open(download.path(), "rb") as pdf:
        assert pdf.read(4) == b"%PDF"
