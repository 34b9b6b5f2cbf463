"""Services list (spec 2): tiles, filters bound to the URL, the remembered view mode, the
export of what the list shows, and the Import button only for reference masters."""

import csv
import io
import re
from datetime import date, datetime
from pathlib import Path

from babel.dates import format_date
from playwright.sync_api import Page, expect

from tests.e2e.helpers import DEMO_PASSWORD, choose_language, end_provider_sessions, log_in_as

ALICE = "alice@acme-networks.test"  # reference master, invoice access
BOB = "bob@acme-networks.test"  # neither


def _open_services(page: Page, email: str = ALICE, query: str = "") -> None:
    log_in_as(page, email, f"/services{query}")
    expect(page.get_by_role("heading", level=1, name="Services")).to_be_visible()
    expect(page.get_by_test_id("service-card").first).to_be_visible()


def _open_advanced_search(page: Page) -> None:
    """The status and type filters are the advanced search's (spec 2: showAdvancedSearch)."""
    button = page.get_by_role("button", name="Advanced search")
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    expect(page.get_by_test_id("status-filter")).to_be_visible()


def _choose_status(page: Page, label: str) -> None:
    _open_advanced_search(page)
    page.get_by_test_id("status-filter").click()
    page.get_by_role("checkbox", name=label).click()
    page.keyboard.press("Escape")


def _settled(page: Page) -> None:
    """Waits for the list to finish loading: the URL changes in the same update that starts
    the load, so the count and the cards are only final once the list is no longer busy."""
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def _statuses_shown(page: Page) -> set[str]:
    _settled(page)
    chips = page.get_by_test_id("service-card").locator("[data-status]")
    return {chip.get_attribute("data-status") or "" for chip in chips.all()}


def test_tiles_count_and_link_to_the_filtered_list(page: Page) -> None:
    _open_services(page)
    count = page.get_by_test_id("tile-under-construction")
    expect(count).to_have_text(re.compile(r"^\d+$"))
    expected = int(count.inner_text())
    page.get_by_text("Services under construction").click()
    expect(page).to_have_url(re.compile(r"/services/?\?status=under_construction$"))
    expect(page.get_by_test_id("services-count")).to_have_text(
        "1 service found" if expected == 1 else f"{expected} services found"
    )
    assert _statuses_shown(page) == {"under_construction"}


def test_filters_live_in_the_url_through_reload_back_and_forward(page: Page) -> None:
    _open_services(page)
    _choose_status(page, "Terminated")
    expect(page).to_have_url(re.compile(r"status=terminated"))
    expect(page.get_by_test_id("service-card").first.locator("[data-status]")).to_have_attribute(
        "data-status", "terminated"
    )
    assert _statuses_shown(page) == {"terminated"}

    page.reload()
    expect(page.get_by_test_id("status-filter")).to_contain_text("1")
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    assert _statuses_shown(page) == {"terminated"}

    first = page.get_by_test_id("service-card").first.get_by_role("link")
    reference = first.inner_text()
    first.click()
    expect(page).to_have_url(re.compile(r"/services/[0-9a-f-]{36}/?$"))
    expect(page.get_by_role("heading", level=1, name=reference)).to_be_visible()

    page.go_back()
    expect(page).to_have_url(re.compile(r"/services/?\?status=terminated"))
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    assert _statuses_shown(page) == {"terminated"}
    page.go_forward()
    expect(page.get_by_role("heading", level=1, name=reference)).to_be_visible()


def test_the_search_is_trimmed_and_finds_a_reference(page: Page) -> None:
    _open_services(page)
    reference = page.get_by_test_id("service-card").nth(1).get_by_role("link").inner_text()
    page.get_by_label("Search services").fill(f"  {reference}  ")
    expect(page).to_have_url(re.compile(rf"search={re.escape(reference)}(&|$)"))
    expect(page.get_by_test_id("services-count")).to_have_text("1 service found")
    expect(page.get_by_test_id("service-card")).to_have_count(1)
    page.reload()
    expect(page.get_by_label("Search services")).to_have_value(reference)
    expect(page.get_by_test_id("service-card")).to_have_count(1)


def test_the_advanced_search_is_shown_as_the_url_says(page: Page) -> None:
    """Spec 2: showAdvancedSearch is in the query; a status or type filter in use shows it."""
    _open_services(page)
    button = page.get_by_role("button", name="Advanced search")
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.get_by_test_id("status-filter")).to_have_count(0)
    button.click()
    expect(page.get_by_test_id("status-filter")).to_be_visible()
    expect(page.get_by_test_id("type-filter")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/services/?\?showAdvancedSearch=1$"))
    page.reload()
    expect(page.get_by_test_id("status-filter")).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "true")
    button.click()
    expect(page.get_by_test_id("status-filter")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/services/?$"))
    # A tile's link filters on a status: the filter in use shows.
    page.goto("/services?status=active")
    expect(page.get_by_test_id("status-filter")).to_contain_text("1")


def test_the_type_filter_narrows_its_list_whatever_the_case(page: Page) -> None:
    _open_services(page)
    _open_advanced_search(page)
    page.get_by_test_id("type-filter").click()
    page.get_by_label("Filter the list").fill("ETHERNET")
    popover = page.get_by_role("dialog", name="Type")
    options = popover.get_by_role("checkbox")
    expect(options.first).to_be_visible()
    expect(popover.locator("label").first).to_contain_text("ethernet", ignore_case=True)
    labels = popover.locator("label").all_inner_texts()
    assert labels
    assert all("ethernet" in label.lower() for label in labels)
    options.first.click()
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(r"type\.uuid=[0-9a-f-]{36}"))


def test_twelve_per_page_with_seven_page_buttons_at_most(page: Page) -> None:
    _open_services(page, "admin@patchbay.test")
    expect(page.get_by_test_id("service-card")).to_have_count(12)
    pages = page.get_by_role("navigation", name="Pagination").get_by_role(
        "button", name=re.compile(r"^Page \d+$")
    )
    expect(pages).to_have_count(7)
    pages.nth(1).click()
    expect(page).to_have_url(re.compile(r"page=2"))


def test_the_view_mode_is_remembered(page: Page) -> None:
    _open_services(page)
    page.get_by_role("radio", name="Table").click()
    table = page.get_by_role("table", name="Services")
    expect(table).to_be_visible()
    expect(table.get_by_role("columnheader", name="RFS date")).to_be_visible()
    page.reload()
    expect(page.get_by_role("table", name="Services")).to_be_visible()
    other = page.context.new_page()
    other.goto("/services")
    expect(other.get_by_role("table", name="Services")).to_be_visible()
    other.get_by_role("radio", name="Cards").click()
    expect(other.get_by_test_id("service-card").first).to_be_visible()


def test_the_export_downloads_the_filtered_list(page: Page, tmp_path: Path) -> None:
    _open_services(page)
    _choose_status(page, "Operational")
    expect(page).to_have_url(re.compile(r"status=active"))
    expect(page.get_by_role("link", name="Export")).to_have_attribute(
        "href", re.compile(r"status\[\]=active")
    )
    _settled(page)
    expected = int(page.get_by_test_id("services-count").inner_text().split()[0])
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export").click()
    download = download_info.value
    assert download.suggested_filename == "export_services.csv"
    target = tmp_path / "export.csv"
    download.save_as(target)
    content = target.read_bytes()
    assert content.startswith(b"\xef\xbb\xbf")
    header, *rows = csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";")
    assert header[:2] == ["reference", "clientReferences"]
    assert len(rows) == expected
    assert {row[header.index("status")] for row in rows} == {"Operational"}


def test_an_expired_session_comes_back_to_the_filtered_list(
    page: Page, portal_settings: dict[str, str]
) -> None:
    """Spec 8: a 401 signs out with the page to come back to, and the list's filters are part of
    the page: logging in again reopens the list as it was, not the whole list."""
    _open_services(page, query="?status=terminated")
    end_provider_sessions(portal_settings, ALICE)
    page.get_by_label("Search services").fill("PB")
    expect(page).to_have_url(re.compile(r"/login/?\?redirect="))
    page.get_by_label("E-mail").fill(ALICE)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Login").click()
    expect(page).to_have_url(re.compile(r"/services/?\?status=terminated$"))
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    assert _statuses_shown(page) == {"terminated"}


def test_only_reference_masters_see_the_import_button(page: Page) -> None:
    _open_services(page, BOB)
    expect(page.get_by_role("link", name="Export")).to_be_visible()
    expect(page.get_by_role("button", name="Import reference")).to_have_count(0)


def test_files_need_a_portal_session(page: Page, portal_url: str) -> None:
    signed_out = page.context.request.get(f"{portal_url}/_portal/files/api/services/export")
    assert signed_out.status == 401
    log_in_as(page, ALICE)
    outside_api = page.context.request.get(f"{portal_url}/_portal/files/logout")
    assert outside_api.status == 404
    foreign = page.context.request.get(
        f"{portal_url}/_portal/files/api/services/00000000-0000-4000-8000-000000000000/order_pdf"
    )
    assert foreign.status == 404


def test_switching_language_relabels_the_loaded_list(page: Page) -> None:
    _open_services(page, query="?search=PB-COL-24623")
    card = page.get_by_test_id("service-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Colocation – private cage")
    # Demo dates follow the day of seeding: the French date is the English one, reformatted.
    shown = re.search(r"RFS date: (.+\d{4})", card.inner_text())
    assert shown is not None
    rfs_date = _english_date(shown.group(1))
    choose_language(page, "Français")
    # The provider's labels and the server's dates follow without a reload.
    expect(card).to_contain_text("Colocation – cage privative")
    french = format_date(rfs_date, format="medium", locale="fr_FR")
    expect(card).to_contain_text(f"Mise en service : {french}")
    expect(page).to_have_url(re.compile(r"search=PB-COL-24623"))


def _english_date(text: str) -> date:
    for pattern in ("%d %b %Y", "%b %d, %Y", "%d %B %Y", "%B %d, %Y"):
        try:
            return datetime.strptime(text.strip(), pattern).date()
        except ValueError:
            continue
    raise AssertionError(f"not an English date: {text!r}")
