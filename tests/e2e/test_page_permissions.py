"""Spec 6: a page the user's roles do not open is refused by its URL too, not only hidden from
the navbar: the "Forbidden access" warning, and the page's content never shows."""

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in_as


def test_bob_without_invoice_access_cannot_open_invoicing_by_its_url(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test")
    expect(page.get_by_role("link", name="Invoicing")).to_have_count(0)
    page.goto("/invoices")
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()
    page.get_by_role("link", name="Back to home").click()
    expect(page).to_have_url(re.compile(r":\d+/$"))


def test_claire_without_monitoring_access_cannot_open_monitoring(page: Page) -> None:
    log_in_as(page, "claire@globex.test", "/monitoring")
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()


def test_a_permitted_page_opens_as_before(page: Page) -> None:
    log_in_as(page, "claire@globex.test", "/invoices")
    expect(page.get_by_role("table", name="Invoices")).to_be_visible()
    expect(page.get_by_text("Forbidden access")).to_have_count(0)


def test_the_warning_is_temporary(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test", "/invoices")
    warning = page.get_by_role("status").filter(has_text="Forbidden access")
    expect(warning).to_be_visible()
    expect(warning).to_have_count(0, timeout=9_000)
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()
