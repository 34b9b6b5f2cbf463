"""Users: the list of one's companies and a profile no other company can open (spec 2, DESIGN 4)."""

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import log_in_as, open_user_menu


def _own_profile_url(page: Page) -> str:
    open_user_menu(page)
    page.get_by_role("menuitem", name="My profile").click()
    expect(page).to_have_url(re.compile(r"/users/[0-9a-f-]{36}/?$"))
    return page.url


def test_a_customer_sees_only_users_of_their_companies(page: Page) -> None:
    log_in_as(page, "claire@globex.test", "/users")
    table = page.get_by_role("table", name="Users")
    expect(table).to_contain_text("claire@globex.test")
    expect(table).not_to_contain_text("acme-networks.test")
    expect(table).not_to_contain_text("patchbay.test")


def test_filters_are_kept_in_the_url(page: Page) -> None:
    log_in_as(page, "admin@patchbay.test", "/users")
    page.get_by_label("E-mail").fill("acme-networks")
    expect(page).to_have_url(re.compile(r"email=acme-networks"))
    table = page.get_by_role("table", name="Users")
    expect(table).to_contain_text("alice@acme-networks.test")
    expect(table).not_to_contain_text("claire@globex.test")
    page.reload()
    expect(page.get_by_label("E-mail")).to_have_value("acme-networks")
    expect(table).not_to_contain_text("claire@globex.test")


def test_a_customer_cannot_open_a_user_of_another_company(page: Page, browser: Browser) -> None:
    log_in_as(page, "alice@acme-networks.test")
    alice_profile = _own_profile_url(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Alice")
    other = browser.new_context(base_url=page.url.split("/users")[0])
    try:
        claire = other.new_page()
        log_in_as(claire, "claire@globex.test", alice_profile)
        expect(claire.get_by_text("This user does not exist or you cannot see it.")).to_be_visible()
        expect(claire.locator("main")).not_to_contain_text("alice@acme-networks.test")
    finally:
        other.close()
