"""The shell: navbar by permission, languages and formats, dark mode, not-found (spec 2, 9)."""

import re
from datetime import UTC, datetime

from playwright.sync_api import Page, expect

from tests.e2e.helpers import choose_language, log_in_as, open_user_menu


def test_navbar_follows_permissions(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test")
    nav = page.get_by_role("banner")
    for label in ("Services", "Monitoring", "Tickets", "Contacts", "Users"):
        expect(nav.get_by_role("link", name=label, exact=True)).to_be_visible()
    expect(nav.get_by_role("link", name="Invoicing")).to_have_count(0)


def test_navbar_is_sorted_by_position(page: Page) -> None:
    log_in_as(page, "admin@patchbay.test")
    expect(page.get_by_role("banner").get_by_role("link", name="Users")).to_be_visible()
    labels = [
        text.strip() for text in page.get_by_role("banner").get_by_role("link").all_inner_texts()
    ]
    menu = [
        label
        for label in labels
        if label in {"Services", "Monitoring", "Tickets", "Invoicing", "Contacts", "Users"}
    ]
    assert menu == ["Services", "Monitoring", "Tickets", "Invoicing", "Contacts", "Users"]


def test_language_switch_changes_texts_and_formats(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test")
    since = page.get_by_test_id("signed-in-since")
    expect(since).to_have_text(re.compile(r"\d{1,2}:\d{2}\s?(am|pm)"))
    choose_language(page, "Français")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bienvenue sur votre portail")
    expect(page.get_by_role("banner").get_by_role("link", name="Utilisateurs")).to_be_visible()
    expect(since).to_have_text(re.compile(r"\d{2}:\d{2}\.$"))
    expect(since).not_to_contain_text(re.compile(r"am|pm"))
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bienvenue sur votre portail")
    choose_language(page, "English", label="Langue")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Welcome to your")


def test_dark_mode_is_kept_across_reload(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test")
    html = page.locator("html")
    expect(html).not_to_have_class(re.compile(r"\bdark\b"))
    open_user_menu(page)
    page.get_by_role("menuitemcheckbox", name="Dark mode").click()
    expect(html).to_have_class(re.compile(r"\bdark\b"))
    open_user_menu(page)
    expect(page.get_by_role("menuitemcheckbox", name="Dark mode")).to_have_attribute(
        "aria-checked", "true"
    )
    page.keyboard.press("Escape")
    page.reload()
    expect(html).to_have_class(re.compile(r"\bdark\b"))


def test_documentation_opens_the_pdf_of_the_language(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test")
    open_user_menu(page)
    page.get_by_role("menuitem", name="Documentation").click()
    dialog = page.get_by_role("dialog")
    # exact: a browser without a PDF viewer also shows the embed's fallback link, "Download
    # the user documentation".
    expect(dialog.get_by_role("link", name="Download", exact=True)).to_have_attribute(
        "href", re.compile(r"/docs/user_documentation_en$")
    )
    response = page.request.get("/docs/user_documentation_en")
    assert response.status == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")


def test_unknown_path_shows_not_found(page: Page) -> None:
    page.goto("/no/such/page")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    expect(page).to_have_title("Not found · Patchbay")  # spec 2: the title 'not found'
    page.get_by_role("button", name="Back to home").click()
    expect(page).to_have_url(re.compile(r"/login/?$"))


def test_footer_shows_the_year_of_the_browsers_clock(page: Page) -> None:
    # A year no build could have baked in: the footer reads the browser's clock (spec 1).
    page.clock.set_fixed_time(datetime(2041, 3, 1, 12, tzinfo=UTC))
    page.goto("/login")
    expect(page.get_by_test_id("copyright")).to_have_text("© 2041 Patchbay")


def test_phone_width_uses_the_drawer(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    log_in_as(page, "alice@acme-networks.test")
    page.get_by_role("button", name="Open the menu").click()
    drawer = page.get_by_role("dialog")
    drawer.get_by_role("link", name="Users").click()
    expect(page).to_have_url(re.compile(r"/users/?$"))
