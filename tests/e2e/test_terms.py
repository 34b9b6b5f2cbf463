"""Terms of use: a user who has not accepted them accepts them and goes home (spec 2, 4)."""

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import choose_language, log_in


def test_accepting_the_terms_opens_the_portal(page: Page) -> None:
    log_in(page, "newbie@acme-networks.test")
    expect(page).to_have_url(re.compile(r"/terms/?$"))
    page.goto("/users")
    expect(page).to_have_url(re.compile(r"/terms/?$"))
    expect(page.get_by_text("Please accept the terms and conditions of use.")).to_be_visible()
    validate = page.get_by_role("button", name="Validate")
    expect(validate).to_be_disabled()
    page.get_by_role("checkbox", name="I have read and accept the terms of use").click()
    expect(validate).to_be_enabled()
    validate.click()
    expect(page).to_have_url(re.compile(r":\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Welcome to your")
    expect(page.get_by_text("Please accept the terms and conditions of use.")).to_have_count(0)
    page.goto("/users")
    expect(page.get_by_role("heading", name="Users", level=1)).to_be_visible()


def test_terms_state_the_retention_periods(page: Page) -> None:
    page.goto("/terms")
    expect(page.get_by_text("Effective date: 1 November 2021")).to_be_visible()
    body = page.locator("main")
    expect(body).to_contain_text("5 years")
    expect(body).to_contain_text("1 year")
    expect(body).to_contain_text("12 months")


def test_legal_notices_follow_the_language(page: Page) -> None:
    page.goto("/legal_notices")
    expect(page.get_by_role("heading", name="Legal notices", level=1)).to_be_visible()
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Mentions légales", level=1)).to_be_visible()
