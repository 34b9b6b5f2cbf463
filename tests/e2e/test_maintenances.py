"""Maintenances (spec 2; issue 14): the calendar — month first, Monday first, week, day and list
views, back to month, a day's more-link opening the day view, cancelled works struck through, a
click opening the dialog — in English and French; the dialog's duration, singular and plural;
the list/calendar choice remembered; dates on the browser's clock; the private calendar feed
made, read and stopped, its link redacted in the log, and offered to no staff member."""

import re
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import choose_language, log_in_as

ALICE = "alice@acme-networks.test"
# The demo's busy night: five Acme works on the 15th of the current month from 22:00 UTC, the
# first lasting one hour, the second three, the fourth cancelled.
BUSY_DAY = datetime.now(UTC).date().replace(day=15)
FIRST, SECOND, CANCELLED = (f"MNT-{BUSY_DAY:%Y}-{n:04d}" for n in (101, 102, 104))
# Where to click an event: its start, which the day view never covers with another.
CORNER = {"x": 4, "y": 4}


def _open(page: Page, *, calendar: bool = True) -> Locator:
    log_in_as(page, ALICE, "/maintenances")
    expect(page.get_by_role("heading", level=1, name="Maintenances")).to_be_visible()
    if calendar:
        page.get_by_role("radio", name="Calendar").click()
    return page.get_by_test_id("maintenance-calendar")


def _busy_cell(page: Page) -> Locator:
    return page.locator(f"td.fc-daygrid-day[data-date='{BUSY_DAY.isoformat()}']")


def _event(page: Page, reference: str) -> Locator:
    return page.locator(".fc-event", has_text=reference)


def test_the_calendar_opens_on_the_month_with_monday_first(page: Page) -> None:
    calendar = _open(page)
    expect(calendar).to_have_attribute("data-view", "dayGridMonth")
    expect(calendar.locator(".fc-toolbar-title")).to_have_text(
        re.compile(BUSY_DAY.strftime("%B %Y"))
    )
    headers = calendar.locator(".fc-col-header-cell")
    expect(headers.first).to_have_text("Mon")
    expect(headers.last).to_have_text("Sun")
    expect(calendar.get_by_role("button", name="Back to month")).to_have_count(0)
    # Only the visible period was asked for: events of this month, none from another year.
    expect(calendar.locator(".fc-event").first).to_be_visible()


def test_week_day_and_list_views_and_back_to_month(page: Page) -> None:
    calendar = _open(page)
    for button, view in (("Week", "timeGridWeek"), ("Day", "timeGridDay"), ("List", "listMonth")):
        calendar.get_by_role("button", name=button, exact=True).click()
        expect(calendar).to_have_attribute("data-view", view)
        back = calendar.get_by_role("button", name="Back to month")
        expect(back).to_be_visible()
    back.click()
    expect(calendar).to_have_attribute("data-view", "dayGridMonth")
    expect(calendar.get_by_role("button", name="Back to month")).to_have_count(0)
    calendar.get_by_role("button", name="Day", exact=True).click()
    # 26 one-hour intervals: midnight to 02:00 the next day.
    expect(calendar.locator("td.fc-timegrid-slot-lane")).to_have_count(26)


def test_a_more_link_opens_the_day_and_a_click_opens_the_dialog(page: Page) -> None:
    calendar = _open(page)
    more = _busy_cell(page).locator(".fc-daygrid-more-link")
    expect(more).to_be_visible()
    more.click()
    expect(calendar).to_have_attribute("data-view", "timeGridDay")
    expect(calendar.locator(".fc-toolbar-title")).to_contain_text(str(BUSY_DAY.day))
    for reference in (FIRST, SECOND, CANCELLED):
        expect(_event(page, reference)).to_be_visible()
    struck = _event(page, CANCELLED).locator(".fc-event-title")
    expect(struck).to_have_css("text-decoration-line", "line-through")
    expect(_event(page, FIRST).locator(".fc-event-title")).to_have_css(
        "text-decoration-line", "none"
    )
    _event(page, FIRST).click(position=CORNER)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(FIRST)
    expect(dialog.get_by_test_id("impacted-count")).to_have_text(
        re.compile(r"^\d+ impacted services?$")
    )
    expect(dialog).to_contain_text("1 hour")
    expect(dialog).not_to_contain_text("1 hours")
    dialog.get_by_role("button", name="Close").click()
    _event(page, SECOND).click(position=CORNER)
    expect(page.get_by_role("dialog")).to_contain_text("3 hours")


def test_the_calendar_speaks_french(page: Page) -> None:
    calendar = _open(page)
    choose_language(page, "Français")
    expect(calendar.locator(".fc-col-header-cell").first).to_have_text(re.compile("^lun", re.I))
    expect(calendar.locator(".fc-toolbar-title")).to_have_text(
        re.compile(rf"^{_FRENCH_MONTHS[BUSY_DAY.month - 1]} {BUSY_DAY.year}$", re.I)
    )
    calendar.get_by_role("button", name="Semaine").click()
    expect(calendar.get_by_role("button", name="Retour au mois")).to_be_visible()
    calendar.get_by_role("button", name="Retour au mois").click()
    expect(calendar).to_have_attribute("data-view", "dayGridMonth")
    _busy_cell(page).locator(".fc-daygrid-more-link").click()
    # 24-hour times in French.
    expect(_event(page, FIRST)).to_contain_text("22:00 - 23:00")
    _event(page, SECOND).click(position=CORNER)
    expect(page.get_by_role("dialog")).to_contain_text("3 heures")
    expect(page.get_by_role("dialog")).to_contain_text("Durée")


_FRENCH_MONTHS = (
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
    "octobre", "novembre", "décembre",
)  # fmt: skip


def test_the_list_or_calendar_choice_is_remembered(page: Page) -> None:
    _open(page, calendar=False)
    expect(page.get_by_role("table", name="Maintenances")).to_be_visible()
    page.get_by_role("radio", name="Calendar").click()
    expect(page.get_by_test_id("maintenance-calendar")).to_be_visible()
    page.reload()
    expect(page.get_by_test_id("maintenance-calendar")).to_be_visible()
    expect(page.get_by_role("table", name="Maintenances")).to_have_count(0)
    page.get_by_role("radio", name="List").click()
    # The choice is stored as the new view arrives: leave only once it has.
    expect(page.get_by_role("table", name="Maintenances")).to_be_visible()
    page.goto("/")
    page.goto("/maintenances")
    expect(page.get_by_role("table", name="Maintenances")).to_be_visible()
    expect(page.get_by_test_id("maintenance-calendar")).to_have_count(0)


def test_the_table_opens_the_dialog_with_the_duration(page: Page) -> None:
    _open(page, calendar=False)
    table = page.get_by_role("table", name="Maintenances")
    expect(table.get_by_role("button", name=re.compile(r"^MNT-")).first).to_be_visible()
    # The dialog's duration matches its row's.
    row = table.locator("tbody tr").first
    duration = row.locator("td").nth(0).inner_text()
    row.get_by_role("button").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(duration)
    expect(dialog.get_by_role("link").first).to_be_visible()


@pytest.mark.parametrize("context_options", [{"locale": "en-GB", "timezone_id": "Asia/Tokyo"}])
def test_the_dialog_tells_the_time_of_the_browsers_zone(page: Page) -> None:
    calendar = _open(page)
    calendar.get_by_role("button", name="List", exact=True).click()
    # 22:00 UTC on the busy day is 07:00 the next morning in Tokyo (UTC+9, no summer time),
    # in the calendar and in the dialog the server formats alike.
    event = calendar.locator(".fc-list-event", has_text=FIRST)
    expect(event).to_contain_text(re.compile(r"0?7:00"))
    event.click()
    morning = rf"{BUSY_DAY.day + 1} \w+ {BUSY_DAY.year}, 7:00\sam"
    expect(page.get_by_role("dialog")).to_contain_text(re.compile(morning))


def test_a_private_feed_is_made_read_replaced_and_stopped(page: Page, portal_data: Path) -> None:
    _open(page, calendar=False)
    card = page.get_by_test_id("calendar-feed")
    expect(card.get_by_test_id("feed-state")).to_have_text("You have no calendar link.")
    card.get_by_role("button", name="Make my calendar link").click()
    url_field = card.get_by_test_id("feed-url")
    expect(url_field).to_have_value(re.compile(r"^http://localhost:\d+/calendar/pbc_[\w-]+\.ics$"))
    first = url_field.input_value()
    answer = httpx.get(first)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/calendar")
    assert answer.text.startswith("BEGIN:VCALENDAR")
    assert FIRST in answer.text
    # Issue 55, item 5: the portal passes the validators on, and the provider's 304.
    unchanged = httpx.get(first, headers={"If-None-Match": answer.headers["etag"]})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    assert unchanged.headers["etag"] == answer.headers["etag"]
    card.get_by_role("button", name=re.compile("Make a new link")).click()
    expect(url_field).not_to_have_value(first)
    assert httpx.get(first).status_code == 404
    second = url_field.input_value()
    assert httpx.get(second).status_code == 200
    page.reload()
    expect(card.get_by_test_id("feed-state")).to_contain_text("A private link exists since")
    expect(card.get_by_test_id("feed-url")).to_have_count(0)
    card.get_by_role("button", name="Stop the feed").click()
    expect(card.get_by_test_id("feed-state")).to_have_text("You have no calendar link.")
    assert httpx.get(second).status_code == 404
    # Issue 47, item 15: the link is a credential; the access log names the path without it.
    time.sleep(1)  # the workers' last lines reach the file
    log = (portal_data / "portal.log").read_text(errors="replace")
    for link in (first, second):
        assert link.rsplit("/", 1)[1].removesuffix(".ics") not in log
    assert "GET /calendar/[redacted].ics 200" in log
    assert "GET /calendar/[redacted].ics 404" in log


def test_at_phone_width_the_feed_buttons_stay_in_their_card(page: Page) -> None:
    """The button that replaces the link ran out of the card on a phone, its label cut."""
    page.set_viewport_size({"width": 390, "height": 844})
    _open(page, calendar=False)
    card = page.get_by_test_id("calendar-feed")
    card.get_by_role("button", name="Make my calendar link").click()
    replace = card.get_by_role("button", name="Make a new link (the current one stops working)")
    expect(replace).to_be_visible()
    card_box, button_box = card.bounding_box(), replace.bounding_box()
    assert card_box is not None
    assert button_box is not None
    assert button_box["x"] + button_box["width"] <= card_box["x"] + card_box["width"]
    assert card_box["x"] + card_box["width"] <= 390
    # The module shares one demo: the next test starts with no link, whichever runs first.
    card.get_by_role("button", name="Stop the feed").click()
    expect(card.get_by_test_id("feed-state")).to_have_text("You have no calendar link.")


def test_staff_are_offered_no_feed(page: Page) -> None:
    log_in_as(page, "admin@patchbay.test", "/maintenances")
    expect(page.get_by_role("heading", level=1, name="Maintenances")).to_be_visible()
    expect(page.get_by_test_id("maintenances-count")).to_be_visible()
    expect(page.get_by_test_id("calendar-feed")).to_have_count(0)
