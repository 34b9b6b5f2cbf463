"""The dashboard (spec 2: Dashboard): each tile's figure is the count of the filtered list its
link opens; the last tickets and the maintenances five to a page; the invoice tiles only with
invoice access; French formats."""

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from bench.run.browsers import ON_LOAD, Browser, Timings, _all_of, _done
from portal.pages.home.state import DashboardMaintenancesState, LastTicketsState
from tests.e2e.helpers import (
    DEMO_PASSWORD,
    choose_language,
    end_provider_sessions,
    log_in_as,
    unreadable_table,
)

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"


def _tile_figure(page: Page, test_id: str) -> int:
    tile = page.get_by_test_id(test_id)
    expect(tile).to_have_text(re.compile(r"^\d+$"))
    return int(tile.inner_text())


def _listed(page: Page, count_id: str) -> int:
    expect(page.locator("[aria-busy='true']")).to_have_count(0)
    count = page.get_by_test_id(count_id)
    expect(count).to_have_text(re.compile(r"^\d+ "))
    return int(count.inner_text().split()[0])


@pytest.mark.parametrize(
    ("tile", "url", "count_id"),
    [
        ("tile-active-services", r"/services/?\?status=active$", "services-count"),
        ("tile-under-construction", r"/services/?\?status=under_construction$", "services-count"),
        ("tile-open-tickets", r"/tickets/?\?status.*=open", "tickets-count"),
        ("tile-closed-tickets", r"/tickets/?\?status.*=closed$", "tickets-count"),
        ("tile-to-pay", r"/invoices/?\?.*isPaid=0", "invoices-count"),
    ],
)
def test_each_tile_opens_its_list_with_the_same_count(
    page: Page, tile: str, url: str, count_id: str
) -> None:
    log_in_as(page, ALICE)
    figure = _tile_figure(page, tile)
    page.get_by_test_id(tile).click()
    expect(page).to_have_url(re.compile(url))
    assert _listed(page, count_id) == figure


def test_the_last_tickets_and_the_maintenances_five_to_a_page(page: Page) -> None:
    log_in_as(page, ALICE)
    tickets = page.get_by_test_id("dashboard-tickets")
    # A header and five tickets; the demo has more, so there are further pages.
    expect(tickets.get_by_role("table", name="Tickets").get_by_role("row")).to_have_count(6)
    expect(tickets.get_by_role("button", name="Page 2")).to_be_visible()
    maintenances = page.get_by_test_id("dashboard-maintenances")
    rows = maintenances.get_by_role("table", name="Maintenances").get_by_role("row")
    expect(rows).to_have_count(6)
    # The reference opens the dialog with the whole maintenance.
    reference = rows.nth(1).get_by_role("button").first
    name = reference.inner_text()
    reference.click()
    expect(page.get_by_role("dialog")).to_contain_text(name)


def test_without_invoice_access_no_invoice_figures(page: Page) -> None:
    log_in_as(page, BOB)
    expect(page.get_by_test_id("tile-active-services")).to_have_text(re.compile(r"^\d+$"))
    expect(page.get_by_test_id("dashboard-tickets")).to_be_visible()
    expect(page.get_by_test_id("dashboard-invoices")).to_have_count(0)
    expect(page.get_by_test_id("tile-amount-due")).to_have_count(0)


def test_a_failure_of_the_figures_is_said_once_in_their_place(
    page: Page, portal_settings: dict[str, str]
) -> None:
    """docs/decisions/dashboard.md: the figures fail together and are absent, not zero; the
    callout is the one announcement; the last tickets and the maintenances load on their own."""
    with unreadable_table(portal_settings, "invoices"):
        log_in_as(page, ALICE)
        failure = page.get_by_test_id("dashboard-failure")
        expect(failure).to_contain_text("The figures could not be loaded.")
        # No message says it again: the toast would have come in the same update.
        assert page.get_by_role("alert").count() == 0
        for tile in ("tile-active-services", "tile-open-tickets", "tile-amount-due"):
            expect(page.get_by_test_id(tile)).to_have_count(0)
        expect(page.get_by_test_id("dashboard-invoices")).to_have_count(0)
        for table in ("dashboard-tickets", "dashboard-maintenances"):
            expect(page.get_by_test_id(table).get_by_role("row")).to_have_count(6)
    failure.get_by_role("button", name="Try again").click()
    expect(page.get_by_test_id("tile-amount-due")).to_contain_text("€")
    expect(page.get_by_test_id("tile-active-services")).to_have_text(re.compile(r"^\d+$"))
    expect(failure).to_have_count(0)


# From now on, notes the mutation batch in which each watched element first appears: elements
# drawn by one render of the page share a batch.
WATCH_APPEARANCES = """
window.firstAppearances = {};
let batch = 0;
new MutationObserver(() => {
  batch += 1;
  for (const id of ["dashboard-invoices", "tile-amount-due"]) {
    if (!(id in window.firstAppearances) && document.querySelector(`[data-testid="${id}"]`)) {
      window.firstAppearances[id] = batch;
    }
  }
}).observe(document.body, { childList: true, subtree: true });
"""


def test_the_invoice_section_waits_for_its_figures_with_its_skeletons(
    page: Page, portal_settings: dict[str, str]
) -> None:
    """For an invoice reader the section is drawn as the figures start loading, its skeletons
    in place, rather than arriving with them and pushing the tables down. The figures loaded
    again after a failure show it render by render: the page's own first load mounts in a
    transition, which may draw several updates at once."""
    with unreadable_table(portal_settings, "invoices"):
        log_in_as(page, ALICE)
        expect(page.get_by_test_id("dashboard-failure")).to_be_visible()
    page.evaluate(WATCH_APPEARANCES)
    page.get_by_role("button", name="Try again").click()
    expect(page.get_by_test_id("tile-amount-due")).to_contain_text("€")
    appeared = page.evaluate("window.firstAppearances")
    assert appeared["dashboard-invoices"] < appeared["tile-amount-due"]


def test_amounts_and_labels_in_french(page: Page) -> None:
    log_in_as(page, ALICE)
    expect(page.get_by_test_id("tile-amount-due")).to_contain_text("€")
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Derniers tickets")).to_be_visible()
    # "1 234,56 €": a comma before the cents and the euro sign after the amount.
    expect(page.get_by_test_id("tile-amount-due")).to_have_text(
        re.compile(r"^-?[\d\u202f\u00a0 ]+,\d\d\s€$")
    )
    expect(page.get_by_test_id("dashboard-invoices")).to_contain_text("Montant dû")


def _rows_of(page: Page, test_ids: list[str]) -> list[list[str]]:
    """The tiles grouped by the row they are drawn on, top to bottom."""
    rows: dict[float, list[str]] = {}
    for test_id in test_ids:
        box = page.get_by_test_id(test_id).bounding_box()
        assert box is not None
        rows.setdefault(round(box["y"]), []).append(test_id)
    return [rows[y] for y in sorted(rows)]


@pytest.mark.parametrize(
    ("width", "rows"), [(400, [1, 1, 1, 1]), (800, [2, 2]), (1100, [3, 1]), (1400, [4])]
)
def test_the_invoice_tiles_follow_the_12_6_4_3_grid(
    page: Page, width: int, rows: list[int]
) -> None:
    """Spec 2: tiles take 12, 6, 4 then 3 of 12 columns as the screen widens."""
    page.set_viewport_size({"width": width, "height": 900})
    log_in_as(page, ALICE)
    tiles = ["tile-balance", "tile-amount-due", "tile-amount-overdue", "tile-to-pay"]
    for tile in tiles:
        expect(page.get_by_test_id(tile)).to_contain_text(re.compile(r"\d"))
    assert [len(row) for row in _rows_of(page, tiles)] == rows


def test_the_list_or_calendar_choice_is_shared_with_the_maintenances_view(page: Page) -> None:
    log_in_as(page, ALICE)
    card = page.get_by_test_id("dashboard-maintenances")
    card.get_by_role("radio", name="Calendar").click()
    expect(card.get_by_test_id("maintenance-calendar").locator(".fc-event").first).to_be_visible()
    card.get_by_role("link", name="All maintenances").click()
    expect(page.get_by_role("heading", level=1, name="Maintenances")).to_be_visible()
    expect(page.get_by_test_id("maintenance-calendar")).to_be_visible()
    page.get_by_role("radio", name="List").click()
    # The choice is stored as the new view arrives: leave only once it has.
    expect(page.get_by_role("table", name="Maintenances")).to_be_visible()
    page.goto("/")
    expect(
        page.get_by_test_id("dashboard-maintenances").get_by_role("table", name="Maintenances")
    ).to_be_visible()


def test_an_ended_provider_session_signs_out_of_the_dashboard(
    page: Page, portal_settings: dict[str, str]
) -> None:
    """The home page's three loads meet the provider's 401 together: the user is sent to the
    login page once, not shown three failures, and comes back to a whole dashboard."""
    log_in_as(page, ALICE)
    end_provider_sessions(portal_settings, ALICE)
    page.reload()
    expect(page).to_have_url(re.compile(r"/login/?$"))
    log_in_as(page, ALICE)
    expect(page.get_by_test_id("tile-active-services")).to_have_text(re.compile(r"^\d+$"))
    for table in ("dashboard-tickets", "dashboard-maintenances"):
        expect(page.get_by_test_id(table).get_by_role("row")).to_have_count(6)


async def _updates_going_home(portal_url: str) -> list[dict[str, Any]]:
    """Every update the home page's load sends to a signed-in tab that comes back to it."""
    browser = Browser(portal_url, ALICE, DEMO_PASSWORD, Timings(), think=0, seed=0)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            await browser.log_in(http)
        socket = browser.socket
        assert socket is not None
        seen: list[dict[str, Any]] = []
        loaded = _all_of(_done(LastTicketsState), _done(DashboardMaintenancesState))

        def recorded_until_loaded(update: dict[str, Any]) -> bool:
            seen.append(update)
            return loaded(update)

        await socket.emit(ON_LOAD, {})
        await socket.until(recorded_until_loaded)
        return seen
    finally:
        await browser.close()


def _value(update: dict[str, Any], state: str, var: str) -> Any:
    return ((update.get("delta") or {}).get(state) or {}).get(f"{var}_rx_state_")


def test_each_table_of_the_home_page_arrives_in_two_updates(portal_url: str) -> None:
    """Each update is a render of the page in the browser (docs/decisions/tables-in-one-event.md):
    a table shows its spinner over emptied rows in one update, its rows in the next."""
    with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's loop
        updates = thread.submit(asyncio.run, _updates_going_home(portal_url)).result()
    for state in (LastTicketsState, DashboardMaintenancesState):
        key = state.get_full_name()
        mine = [u for u in updates if key in (u.get("delta") or {})]
        assert len(mine) == 2, state.__name__
        assert (_value(mine[0], key, "loading"), _value(mine[0], key, "rows")) == (True, [])
        assert _value(mine[1], key, "loading") is False
        assert len(_value(mine[1], key, "rows")) == 5
