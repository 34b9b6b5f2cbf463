"""The audit log screen (issue 17): an administrator finds a failed login by action and by
e-mail, pages through the entries, and the filters stay in the URL; a customer is refused."""

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import DEMO_PASSWORD, log_in, log_in_as, open_user_menu


def test_an_administrator_finds_a_failed_login(browser: Browser, portal_url: str) -> None:
    other = browser.new_context(base_url=portal_url, locale="en-GB")
    try:
        failing = other.new_page()
        log_in(failing, "claire@globex.test", "Not-her-password-1")
        expect(failing.get_by_role("alert")).to_contain_text("Invalid credentials")
    finally:
        other.close()

    page = browser.new_page(base_url=portal_url, locale="en-GB")
    try:
        log_in_as(page, "admin@patchbay.test")
        open_user_menu(page)
        page.get_by_role("menuitem", name="Audit log").click()
        expect(page).to_have_url(re.compile(r"/audit/?$"))
        table = page.get_by_role("table", name="Audit log")
        # Newest first: the administrator's own login of a moment ago.
        first = table.get_by_role("row").nth(1)
        expect(first).to_contain_text("Successful login")
        expect(first).to_contain_text("admin@patchbay.test")

        page.get_by_role("combobox", name="Action").click()
        page.get_by_role("option", name="Failed login", exact=True).click()
        expect(page).to_have_url(re.compile(r"action=login_failed"))
        page.locator("#audit-filter-email").fill("claire@")
        expect(page).to_have_url(re.compile(r"email=claire"))
        expect(page.get_by_test_id("audit-count")).to_have_text("1 entry")
        expect(table.get_by_role("row").nth(1)).to_contain_text("claire@globex.test")

        # The filtered address opens the same list.
        page.reload()
        expect(page.locator("#audit-filter-email")).to_have_value("claire@")
        expect(page.get_by_test_id("audit-count")).to_have_text("1 entry")
        page.get_by_role("button", name="Clear filters").click()
        expect(page).to_have_url(re.compile(r"/audit/?$"))
        expect(table.get_by_role("row").nth(1)).to_contain_text("admin@patchbay.test")
        expect(page.get_by_test_id("audit-count")).to_have_text(re.compile(r"^\d+ entries$"))
    finally:
        page.close()


def test_a_customer_cannot_open_it(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test")
    open_user_menu(page)
    expect(page.get_by_role("menuitem", name="Audit log")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto("/audit")
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()


def test_a_forged_email_and_a_flood_show_for_what_they_are(page: Page, portal_url: str) -> None:
    """Issue 47, item 17: a right-to-left override in the e-mail typed at login showed the
    reversed text as a plain address; it is now written out. The refusals of one address
    beyond the first ten of a window are one entry that says how many."""
    forged = "\u202etset.knab@eve"  # shown as eve@bank.test by the override
    attempt = {"username": forged, "password": "Not-the-password-1"}
    # From an address of its own, which the portal (a trusted proxy) would have forwarded.
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        for _ in range(17):  # 5 failures, then 12 refusals: 10 itemised and 2 counted
            provider.post("/login", json=attempt, headers={"X-Forwarded-For": "203.0.113.77"})

    log_in_as(page, "admin@patchbay.test", "/audit?email=knab")
    table = page.get_by_role("table", name="Audit log")
    expect(page.get_by_test_id("audit-count")).to_have_text("15 entries")
    expect(table.get_by_role("row").nth(1)).to_contain_text("<U+202E>tset.knab@eve")
    assert "\u202e" not in table.inner_text()

    page.goto("/audit?action=login_throttled")
    newest = table.get_by_role("row").nth(1)
    expect(newest).to_contain_text("2 attempts")
    expect(newest).to_contain_text("203.0.113.77")


@pytest.mark.parametrize("context_options", [{"locale": "fr-FR"}])
def test_an_integration_batch_is_named_in_the_readers_language(page: Page, portal_url: str) -> None:
    """The log showed ``integration.companies`` as stored: each batch kind has its label, which
    the action filter offers too."""
    with httpx.Client(base_url=f"{portal_url}/provider") as admin:
        login = {"username": "admin@patchbay.test", "password": DEMO_PASSWORD}
        assert admin.post("/login", json=login).status_code == 204
        scopes = {"name": "CRM (browser test)", "scopes": ["companies"]}
        token = admin.post("/api/tokens", json=scopes).json()["token"]
        batch = admin.put(
            "/api/integration/companies", json=[], headers={"Authorization": f"Bearer {token}"}
        )
        assert batch.status_code == 200, batch.text

    log_in_as(page, "admin@patchbay.test", "/audit")
    page.get_by_role("combobox", name="Action").click()
    label = "Sociétés envoyées par l'API d'intégration"
    page.get_by_role("option", name=label, exact=True).click()
    expect(page).to_have_url(re.compile(r"action=integration\.companies"))
    expect(page.get_by_test_id("audit-count")).to_have_text("1 entrée")
    row = page.get_by_role("table", name="Journal d'audit").get_by_role("row").nth(1)
    expect(row).to_contain_text(label)
