"""Issue 54, item 4: the sensor chart and the invoicing chart read by keyboard alone — open the
chart, change its period, move along its points and hear the readout, show it as a table —
its one-sentence summary in English and French, no motion when reduced motion is asked, and no
axe violation (WCAG 2.0, 2.1 and 2.2, A and AA) on the open chart, light and dark."""

import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import choose_language, log_in_as

BOB = "bob@acme-networks.test"
ALICE = "alice@acme-networks.test"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# English moments: "15 Jul 2026, 10:05 am"; French: "15 juil. 2026 10:05".
EN_MOMENT = r"\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2}\s?[ap]m"
FR_MOMENT = r"\d{1,2} [\wéû]+\.? \d{4} \d{2}:\d{2}"


def _axe_violations(page: Page, selector: str) -> list[tuple[str, str, list[Any]]]:
    options = {"runOnly": {"type": "tag", "values": AXE_TAGS}}
    results = Axe().run(page, context=selector, options=options)
    return [
        (violation["id"], violation["help"], [node["target"] for node in violation["nodes"]])
        for violation in results.response["violations"]
    ]


def _is_focused(locator: Locator) -> bool:
    return bool(locator.evaluate("el => el === document.activeElement"))


def _tab_to(page: Page, locator: Locator, limit: int = 80) -> None:
    """Presses Tab until ``locator`` has the focus, as a keyboard user goes."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if _is_focused(locator):
            return
    raise AssertionError(f"{locator} never took the focus")


def _focus_ring(locator: Locator) -> str:
    return str(locator.evaluate("el => getComputedStyle(el).outlineStyle"))


def _open_chart_by_keyboard(page: Page) -> Locator:
    """From the monitoring list, Tab to the first live sensor card and press Enter."""
    card = page.locator("[data-testid='sensor-card'][data-status='up']").first
    expect(card).to_be_visible()
    _tab_to(page, card, limit=150)
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("chart-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("sensor-chart").locator("svg")).to_be_visible()
    return dialog


def test_a_sensor_chart_is_read_by_keyboard_alone(page: Page) -> None:
    log_in_as(page, BOB, "/monitoring")
    expect(page.get_by_role("heading", level=1, name="Monitoring")).to_be_visible()
    dialog = _open_chart_by_keyboard(page)
    summary = dialog.get_by_test_id("chart-summary")
    expect(summary).to_have_text(re.compile(r"^2 hours up to now, from .+: .+95th percentile"))

    # The period: Tab to its checked item, the arrow moves along, Enter chooses.
    chart = dialog.get_by_test_id("sensor-chart")
    _tab_to(page, dialog.get_by_role("radio", name="2 hours"))
    page.keyboard.press("ArrowRight")
    expect(dialog.get_by_role("radio", name="48 hours")).to_be_focused()
    page.keyboard.press("Enter")
    expect(chart).to_have_attribute("data-span", "last_48_hours")
    expect(summary).to_have_text(re.compile(r"^48 hours up to now"))

    # The chart takes the focus, with a visible ring, and says what it shows.
    reader = dialog.get_by_test_id("chart-reader")
    _tab_to(page, reader)
    assert _focus_ring(reader) != "none"
    expect(reader).to_have_attribute("aria-describedby", "sensor-chart-summary")
    expect(reader).to_have_accessible_description(re.compile(r"^48 hours up to now"))
    readout = dialog.get_by_test_id("chart-readout")
    expect(readout).to_have_attribute("aria-live", "polite")
    page.keyboard.press("Home")
    first = readout.inner_text()
    assert re.fullmatch(rf"{EN_MOMENT}: .+: [\d.,]+ .+", first), first
    page.keyboard.press("ArrowRight")
    expect(readout).not_to_have_text(first)
    second = readout.inner_text()
    page.keyboard.press("ArrowLeft")
    expect(readout).to_have_text(first)
    page.keyboard.press("End")
    expect(readout).not_to_have_text(second)
    last = readout.inner_text()
    line = dialog.locator(".chart-reader-line")
    expect(line).to_be_visible()
    # The line glides to its moment, unless the user asked for less motion.
    assert line.evaluate("el => getComputedStyle(el).transitionDuration") == "0.12s"
    page.emulate_media(reduced_motion="reduce")
    assert line.evaluate("el => getComputedStyle(el).transitionDuration") == "0s"

    # The same series as a table: the last row is the moment the readout said last.
    toggle = dialog.get_by_role("button", name="Show as table")
    _tab_to(page, toggle)
    page.keyboard.press("Enter")
    table = dialog.get_by_role("table")
    expect(table).to_be_visible()
    expect(table.locator("caption")).to_have_text(re.compile(r"48 hours up to now \(times in "))
    headers = table.locator("thead th").all_inner_texts()
    assert headers[0] == "Time"
    assert all(re.search(r"\(.+\)$", header) for header in headers[1:]), headers
    rows = table.locator("tbody tr")
    expect(rows.first).to_be_visible()
    cells = rows.last.locator("th, td").all_inner_texts()
    assert last.startswith(f"{cells[0]}: ")
    for name, value in zip(headers[1:], cells[1:], strict=True):
        if value != "–":
            channel = name.rsplit(" (", 1)[0]
            assert f"{channel}: {value} " in last, (channel, value, last)
    expect(dialog.get_by_role("button", name="Show as chart")).to_be_focused()
    page.keyboard.press("Enter")
    expect(reader).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_a_sensor_chart_is_summed_up_in_french(page: Page) -> None:
    log_in_as(page, BOB, "/monitoring")
    choose_language(page, "Français")
    expect(page.get_by_role("heading", level=1, name="Supervision")).to_be_visible()
    dialog = _open_chart_by_keyboard(page)
    summary = dialog.get_by_test_id("chart-summary")
    expect(summary).to_have_text(
        re.compile(r"^2 heures jusqu'à maintenant, du .+ : .+dernière valeur .+95e centile")
    )
    reader = dialog.get_by_test_id("chart-reader")
    _tab_to(page, reader)
    page.keyboard.press("End")
    readout = dialog.get_by_test_id("chart-readout")
    assert re.fullmatch(rf"{FR_MOMENT} : .+ : [\d\u202f ,]+ .+", readout.inner_text())
    dialog.get_by_role("button", name="Afficher en tableau").press("Enter")
    expect(dialog.get_by_role("table").locator("thead th").first).to_have_text("Heure")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_open_sensor_chart_has_no_axe_violation(page: Page, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    log_in_as(page, BOB, "/monitoring")
    dialog = _open_chart_by_keyboard(page)
    expect(dialog.get_by_test_id("chart-summary")).to_contain_text("95th percentile")
    expect(dialog.get_by_test_id("legend-entry").first.locator("svg")).to_be_visible()
    assert _axe_violations(page, "[data-testid='chart-dialog']") == []
    dialog.get_by_test_id("chart-reader").focus()
    page.keyboard.press("End")
    dialog.get_by_role("button", name="Show as table").click()
    expect(dialog.get_by_role("table")).to_be_visible()
    assert _axe_violations(page, "[data-testid='chart-dialog']") == []


# Where the caption's text lies within the table's scrolling region, left and right.
_CAPTION_IN_REGION = """region => {
  const text = document.createRange();
  text.selectNodeContents(region.querySelector("caption"));
  const [inner, outer] = [text.getBoundingClientRect(), region.getBoundingClientRect()];
  return {
    wider: region.scrollWidth > region.clientWidth,
    inside: outer.left <= inner.left + 0.5 && inner.right <= outer.right + 0.5,
  };
}"""


def _traffic_chart_on_a_phone(page: Page) -> Locator:
    """Bob's first working traffic sensor's chart, opened at a phone's width."""
    page.set_viewport_size({"width": 390, "height": 844})
    log_in_as(page, BOB, "/monitoring")
    sensors = page.locator("[data-testid='sensor-card'][data-status='up']")
    sensors.filter(has_text="Traffic").first.click()
    dialog = page.get_by_test_id("chart-dialog")
    expect(dialog.get_by_test_id("chart-summary")).to_contain_text("95th percentile")
    return dialog


def test_at_phone_width_the_tables_caption_stays_within_its_region(page: Page) -> None:
    dialog = _traffic_chart_on_a_phone(page)
    dialog.get_by_role("button", name="Show as table").click()
    region = dialog.locator(".chart-reader-table")
    expect(region.get_by_role("table")).to_be_visible()
    # The table is wider than the phone and scrolls sideways; its caption wraps and stays put.
    assert region.evaluate(_CAPTION_IN_REGION) == {"wider": True, "inside": True}
    region.evaluate("region => { region.scrollLeft = region.scrollWidth; }")
    assert region.evaluate(_CAPTION_IN_REGION) == {"wider": True, "inside": True}


# The chart's texts as drawn on the screen: each one's height, and whether two run into
# each other.
_CHART_TEXTS = """svg => {
  const boxes = [...svg.querySelectorAll("text")].map(text => text.getBoundingClientRect());
  const apart = (a, b) =>
    a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  return {
    smallest: Math.min(...boxes.map(box => box.height)),
    overlaps: boxes.flatMap((a, i) => boxes.slice(i + 1).filter(b => !apart(a, b))).length,
  };
}"""


def test_at_phone_width_the_sensor_chart_is_drawn_for_it(page: Page) -> None:
    dialog = _traffic_chart_on_a_phone(page)
    chart = dialog.get_by_test_id("sensor-chart")
    for span in ("48 hours", "365 days"):
        dialog.get_by_role("radio", name=span).click()
        expect(dialog.get_by_test_id("chart-summary")).to_contain_text(span)
        texts = chart.locator("svg").first.evaluate(_CHART_TEXTS)
        # Labels at about 1:1 (the time zone's 7.5 points the smallest); the wide chart shrunk
        # to the phone drew it 5 px high.
        assert texts["smallest"] >= 8, texts
        assert texts["overlaps"] == 0, texts
    box = chart.bounding_box()
    assert box is not None
    assert box["width"] <= 390


def _invoicing_chart(page: Page) -> Locator:
    log_in_as(page, ALICE, "/invoices")
    chart = page.get_by_test_id("invoices-chart")
    expect(chart.locator(".legendtext")).to_have_count(2, timeout=30_000)
    return chart


def test_the_invoicing_chart_is_read_by_keyboard_alone(page: Page) -> None:
    chart = _invoicing_chart(page)
    summary = chart.get_by_test_id("chart-summary")
    expect(summary).to_have_text(re.compile(r"^From \w{3} \d{4} to \w{3} \d{4}: €[\d,.]+ invoiced"))
    reader = chart.get_by_test_id("chart-reader")
    _tab_to(page, reader)
    assert _focus_ring(reader) != "none"
    expect(reader).to_have_accessible_description(summary.inner_text())
    readout = chart.get_by_test_id("chart-readout")
    page.keyboard.press("End")
    last = readout.inner_text()
    assert re.fullmatch(r"\w{3} \d{4}: Amount invoiced: -?€[\d,.]+; Amount paid: -?€[\d,.]+", last)
    page.keyboard.press("ArrowLeft")
    expect(readout).not_to_have_text(last)
    page.keyboard.press("ArrowRight")
    expect(readout).to_have_text(last)
    # The line stands over the last month's bars, inside Plotly's plot area.
    line = chart.locator(".chart-reader-line").bounding_box()
    area = chart.locator(".nsewdrag").bounding_box()
    assert line is not None
    assert area is not None
    assert area["x"] + area["width"] * 0.9 < line["x"] < area["x"] + area["width"]

    page.keyboard.press("Shift+Tab")
    toggle = chart.get_by_role("button", name="Show as table")
    expect(toggle).to_be_focused()
    page.keyboard.press("Enter")
    table = chart.get_by_role("table", name="Invoiced and paid per month, tax included")
    expect(table.locator("tbody tr")).to_have_count(24)
    cells = table.locator("tbody tr").last.locator("th, td").all_inner_texts()
    assert last == f"{cells[0]}: Amount invoiced: {cells[1]}; Amount paid: {cells[2]}"


def test_the_invoicing_chart_is_summed_up_in_french(page: Page) -> None:
    _invoicing_chart(page)
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Facturation")).to_be_visible()
    page.reload()
    chart = page.get_by_test_id("invoices-chart")
    expect(chart.get_by_test_id("chart-summary")).to_have_text(
        re.compile(r"^De \S+ \d{4} à \S+ \d{4} : .+ facturés et .+ payés au total")
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_invoicing_chart_has_no_axe_violation(page: Page, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    chart = _invoicing_chart(page)
    assert _axe_violations(page, "[data-testid='invoices-chart']") == []
    chart.get_by_role("button", name="Show as table").click()
    expect(chart.get_by_role("table")).to_be_visible()
    assert _axe_violations(page, "[data-testid='invoices-chart']") == []
