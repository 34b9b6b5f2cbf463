"""Impersonation (spec 2, 4 and 6, DESIGN 4): staff act as a customer and come back; while a
sales user impersonates, users cannot be created, edited or deleted."""

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import expect_home, log_in_as, open_user_menu


def _impersonate_alice(page: Page) -> None:
    page.goto("/users")
    page.locator("#users-filter-email").fill("alice@acme-networks.test")
    expect(page.get_by_role("button", name=re.compile("^Impersonate "))).to_have_count(1)
    page.get_by_role("button", name="Impersonate Alice Martin").click()
    expect(page.get_by_test_id("impersonation-banner")).to_contain_text(
        "You are impersonating Alice Martin (alice@acme-networks.test)."
    )
    expect_home(page)


def test_admin_impersonates_alice_and_leaves(page: Page) -> None:
    log_in_as(page, "admin@patchbay.test", "/users")
    page.locator("#users-filter-email").fill("admin@patchbay.test")
    # Nobody impersonates themself (nor another admin).
    impersonate = page.get_by_role("button", name=re.compile("^Impersonate "))
    expect(impersonate).to_have_count(1)
    expect(impersonate).to_be_disabled()

    _impersonate_alice(page)
    open_user_menu(page)
    expect(page.get_by_role("menu")).to_contain_text("alice@acme-networks.test")
    page.keyboard.press("Escape")

    # The impersonation survives a reload: the portal session keeps the impersonator.
    page.reload()
    banner = page.get_by_test_id("impersonation-banner")
    expect(banner).to_be_visible()
    # Alice's rules now: her users only, and no impersonation.
    page.goto("/users")
    table = page.get_by_role("table", name="Users")
    expect(table).to_contain_text("alice@acme-networks.test")
    expect(table).not_to_contain_text("claire@globex.test")
    expect(page.get_by_role("button", name=re.compile("^Impersonate "))).to_have_count(0)

    banner.get_by_role("button", name="Leave impersonation").click()
    expect(banner).to_be_hidden()
    expect_home(page)
    open_user_menu(page)
    expect(page.get_by_role("menu")).to_contain_text("admin@patchbay.test")


def test_sales_cannot_write_users_while_impersonating(page: Page) -> None:
    log_in_as(page, "sales@patchbay.test", "/users")
    # Sales may impersonate but not manage users: no Create, no Edit.
    expect(page.get_by_role("button", name="Create user")).to_have_count(0)
    _impersonate_alice(page)

    page.goto("/users")
    page.locator("#users-filter-email").fill("bob@acme-networks.test")
    expect(page.get_by_role("table", name="Users")).to_contain_text("bob@acme-networks.test")
    expect(page.get_by_role("button", name="Create user")).to_be_disabled()
    expect(page.get_by_role("button", name=re.compile("^Edit Bob"))).to_be_disabled()
    expect(page.get_by_role("button", name=re.compile("^Delete Bob"))).to_be_disabled()

    page.get_by_role("button", name="Leave impersonation").click()
    expect(page.get_by_test_id("impersonation-banner")).to_be_hidden()
