"""Monitoring (spec 2, 4 and 9): the status counts as the provider's sensors give them (path-type
sensors left out), grouping, the chart dialog with its four spans and legend, the 30-second
refresh that keeps an open dialog, French time labels, and who may not open the screen."""

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import httpx
import sqlalchemy as sa
from playwright.sync_api import Locator, Page, expect
from sqlmodel import col, select, update

from portal.pages.monitoring.state import REFRESH_MS
from portal.provider.platform.db import create_db_engine
from portal.provider.platform.models import ProviderSession, User, utcnow
from tests.e2e.conftest import _portal_environment
from tests.e2e.helpers import (
    DEMO_PASSWORD,
    choose_language,
    log_in_as,
    provider_database,
    unreadable_table,
)

BOB = "bob@acme-networks.test"
CLAIRE = "claire@globex.test"
ORDER = ["up", "paused", "warning", "down", "unknown"]
PATH_TAGS = {"product_path", "product_path_backup"}


def _provider_sensors(portal_url: str, email: str = BOB) -> list[dict[str, Any]]:
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        provider.post("/login", json={"username": email, "password": DEMO_PASSWORD})
        return provider.get("/api/sensors").json()["items"]


def _open_monitoring(page: Page, email: str = BOB) -> None:
    log_in_as(page, email, "/monitoring")
    expect(page.get_by_role("heading", level=1, name="Monitoring")).to_be_visible()
    expect(page.get_by_test_id("sensor-card").first).to_be_visible()


def _live(page: Page, kind: str) -> Locator:
    """The first card of that kind of sensor that is up (it has samples to draw)."""
    cards = page.locator("[data-testid='sensor-card'][data-status='up']")
    return cards.filter(has_text=re.compile(rf"^{kind} ")).first


def _summary(page: Page) -> dict[str, int]:
    chips = page.get_by_test_id("monitoring-summary").locator("[data-status]")
    expect(chips).to_have_count(5)
    return {
        chip.get_attribute("data-status") or "": int(
            chip.get_by_test_id("status-count").inner_text()
        )
        for chip in chips.all()
    }


def test_counts_per_level_in_the_spec_order_without_path_sensors(
    page: Page, portal_url: str
) -> None:
    sensors = _provider_sensors(portal_url)
    counted = Counter(s["status"] for s in sensors if not PATH_TAGS & set(s["tags"]))
    _open_monitoring(page)
    chips = page.get_by_test_id("monitoring-summary").locator("[data-status]")
    expect(chips).to_have_count(5)
    assert [chip.get_attribute("data-status") for chip in chips.all()] == ORDER
    assert _summary(page) == {status: counted.get(status, 0) for status in ORDER}
    # Every sensor has a card; path-type ones show no status icon.
    cards = page.get_by_test_id("sensor-card")
    expect(cards).to_have_count(len(sensors))
    paths = page.locator("[data-testid='sensor-card'][data-path='true']")
    expect(paths).to_have_count(sum(1 for s in sensors if PATH_TAGS & set(s["tags"])))
    expect(paths.first.locator("svg.lucide")).to_have_count(0)
    groups = page.get_by_test_id("sensor-group").locator("h2")
    assert groups.all_inner_texts() == sorted({s["group"] for s in sensors}, key=str.casefold)


def test_the_chart_dialog_shows_each_span_and_the_legend(page: Page) -> None:
    _open_monitoring(page)
    _live(page, "Traffic").click()
    dialog = page.get_by_test_id("chart-dialog")
    expect(dialog).to_be_visible()
    spans = dialog.get_by_role("radio")
    # Radix draws each label twice (one copy sizes the item): contained, in this order.
    expect(spans).to_contain_text(["2 hours", "48 hours", "30 days", "365 days"])
    expect(dialog.get_by_role("radio", name="2 hours")).to_be_checked()
    chart = dialog.get_by_test_id("sensor-chart")
    expect(chart.locator("svg")).to_be_visible()
    expect(chart).to_contain_text("95th percentile")
    expect(dialog.get_by_test_id("legend-entry")).to_have_text(
        [re.compile("Traffic in"), re.compile("Traffic out")]
    )
    for span, label in (
        ("last_48_hours", "48 hours"),
        ("last_30_days", "30 days"),
        ("last_365_days", "365 days"),
    ):
        dialog.get_by_role("radio", name=label).click()
        expect(chart).to_have_attribute("data-span", span)
        expect(chart.locator("svg")).to_be_visible()
    # No script came with the SVG, and the chart is scaled to the dialog.
    expect(chart.locator("script")).to_have_count(0)
    fits = chart.evaluate(
        "el => { const svg = el.querySelector('svg').getBoundingClientRect();"
        " const box = el.closest('[role=dialog]').getBoundingClientRect();"
        " return svg.width > 0 && svg.left >= box.left && svg.right <= box.right; }"
    )
    assert fits


def test_the_chart_restyles_nothing_outside_it_and_its_references_resolve(page: Page) -> None:
    """Issue 47, item 8: the portal inlines the chart as its client rewrote it; the chart's
    style sheet paints its own lines only, and its local references still find their targets."""
    _open_monitoring(page)
    icon = page.locator("svg.lucide").first
    linecap = icon.evaluate("el => getComputedStyle(el).strokeLinecap")
    _live(page, "Traffic").click()
    chart = page.get_by_test_id("chart-dialog").get_by_test_id("sensor-chart")
    expect(chart.locator("svg")).to_be_visible()

    assert icon.evaluate("el => getComputedStyle(el).strokeLinecap") == linecap
    drawn = chart.evaluate(
        "el => { const svg = el.querySelector('svg');"
        " const refs = [...svg.querySelectorAll('[clip-path], use')].map(node =>"
        "  (node.getAttribute('clip-path') || '').replace(/^url\\((.*)\\)$/, '$1')"
        "  || node.getAttribute('xlink:href') || node.getAttribute('href'));"
        " return { joins: getComputedStyle(svg.querySelector('path')).strokeLinejoin,"
        "  refs: refs.length, missing: refs.filter(ref => !svg.querySelector(ref)) }; }"
    )
    assert drawn["joins"] == "round"
    assert drawn["refs"] > 0
    assert drawn["missing"] == []


def test_the_refresh_keeps_the_open_dialog_and_shows_new_states(
    page: Page, portal_url: str, portal_settings: dict[str, str]
) -> None:
    page.clock.install()
    _open_monitoring(page)
    before = _summary(page)
    page.evaluate("window.scrollTo(0, 200)")
    _live(page, "Ping").click()
    dialog = page.get_by_test_id("chart-dialog")
    expect(dialog.get_by_test_id("sensor-chart").locator("svg")).to_be_visible()
    up = next(
        s for s in _provider_sensors(portal_url)
        if s["status"] == "up" and not PATH_TAGS & set(s["tags"])
    )  # fmt: skip
    with _portal_environment(portal_settings):
        engine = create_db_engine()
        with engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE sensors SET status = 'down' WHERE reference = :reference"),
                {"reference": up["reference"]},
            )
        engine.dispose()
    page.clock.run_for(31_000)
    expected = {**before, "up": before["up"] - 1, "down": before["down"] + 1}
    expect(
        page.get_by_test_id("monitoring-summary").locator("[data-status='down']")
    ).to_contain_text(str(expected["down"]))
    assert _summary(page) == expected
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("radio", name="2 hours")).to_be_checked()


def test_a_legend_that_cannot_be_read_stops_the_spinner_and_says_so(
    page: Page, portal_settings: dict[str, str]
) -> None:
    _open_monitoring(page)
    dialog = page.get_by_test_id("chart-dialog")
    with unreadable_table(portal_settings, "sensor_legend_entries"):
        _live(page, "Traffic").click()
        expect(dialog).to_be_visible()
        expect(dialog.locator(".rt-Spinner")).to_have_count(0)
        failure = dialog.get_by_test_id("chart-failure")
        expect(failure).to_contain_text("The chart could not be loaded.")
        assert page.get_by_role("alert").count() == 0
    failure.get_by_role("button", name="Try again").click()
    expect(failure).to_have_count(0)
    expect(dialog.get_by_test_id("sensor-chart").locator("svg")).to_be_visible()
    expect(dialog.get_by_test_id("legend-entry")).to_have_count(2)


def _sensor_reads(portal_url: str) -> int:
    """How many times the provider has answered the sensors list, from the portal's metrics."""
    metrics = httpx.get(f"{portal_url}/metrics").text
    return sum(
        int(float(line.rsplit(" ", 1)[1]))
        for line in metrics.splitlines()
        if line.startswith("patchbay_provider_requests_total{")
        and 'route="/api/sensors"' in line
        and 'method="GET"' in line
    )


@contextmanager
def _requests_of(portal_settings: dict[str, str], email: str) -> Iterator[None]:
    """Makes the provider slow for ``email``, for real: their session's last activity is over a
    minute old, so their next request writes it, and another transaction holds that row (on
    SQLite the database's write lock) until the block ends. Their requests wait meanwhile, on
    SQLite at most its 5-second busy timeout."""
    aged = (
        update(ProviderSession)
        .where(
            col(ProviderSession.user_id)
            == select(User.id).where(User.email == email).scalar_subquery()
        )
        .values(last_seen_at=utcnow() - timedelta(minutes=2))
    )
    with provider_database(portal_settings) as db:
        db.exec(aged)
        db.commit()
        db.exec(aged)  # uncommitted: the row stays locked
        try:
            yield
        finally:
            db.rollback()


def test_no_refresh_piles_up_behind_a_slow_provider(
    page: Page, portal_url: str, portal_settings: dict[str, str]
) -> None:
    """Spec 9's 30-second refresh, against a provider slower than that: the ticks that come
    while a refresh still waits for its answer are skipped, not queued up as more calls."""
    page.clock.install()
    _open_monitoring(page)
    expect(page.get_by_test_id("monitoring-refreshed")).to_be_visible()
    before = _sensor_reads(portal_url)
    with _requests_of(portal_settings, BOB):
        for _tick in range(3):
            page.clock.run_for(REFRESH_MS + 1_000)
        # Time for the ticks to reach the portal while the first refresh waits for its answer.
        page.wait_for_timeout(1_000)
    while _sensor_reads(portal_url) == before:
        page.wait_for_timeout(100)
    # Piled-up refreshes would have waited behind the same row and answered with the first.
    page.wait_for_timeout(1_000)
    assert _sensor_reads(portal_url) == before + 1


def test_french_time_labels(page: Page) -> None:
    _open_monitoring(page)
    choose_language(page, "Français")
    expect(page.get_by_role("heading", level=1, name="Supervision")).to_be_visible()
    _live(page, "Traffic").click()
    dialog = page.get_by_test_id("chart-dialog")
    expect(dialog.get_by_role("radio")).to_contain_text(
        ["2 heures", "48 heures", "30 jours", "365 jours"]
    )
    chart = dialog.get_by_test_id("sensor-chart")
    expect(chart).to_contain_text("Fuseau horaire")
    labels = chart.locator("text").all_text_contents()
    assert any(re.fullmatch(r"[0-2]\d:[0-5]\d", label) for label in labels), labels
    assert not any(re.search(r"\b[AP]M\b", label) for label in labels), labels
    dialog.get_by_role("radio", name="365 jours").click()
    expect(chart).to_have_attribute("data-span", "last_365_days")
    expect(chart).to_contain_text(re.compile(r"janv\.|févr\.|mars|avr\.|mai|juin|juil\.|août"))


def test_a_user_without_monitoring_access_sees_neither_menu_nor_screen(page: Page) -> None:
    log_in_as(page, CLAIRE)
    expect(page.get_by_role("link", name="Monitoring")).to_have_count(0)
    page.goto("/monitoring")
    expect(page.get_by_text("Forbidden access").first).to_be_visible()
    expect(page.get_by_test_id("sensor-card")).to_have_count(0)
