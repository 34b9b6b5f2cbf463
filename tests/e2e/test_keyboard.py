"""The portal's main tasks by keyboard alone (issue 54, WCAG 2.1.1, 2.4.3, 2.4.7, 2.4.11): sign
in, change the language, filter, sort and page a list, open a service, open and close a dialog,
move through the maintenance calendar and reply to a ticket. Nothing is clicked: each control is
reached with Tab (or Shift+Tab) from where the focus is, and used with Enter, Space, the arrows
or typing. Each control reached shows a focus indicator and is not hidden under the sticky
navbar."""

import re

from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import DEMO_PASSWORD, log_in_as

ALICE = "alice@acme-networks.test"
ADMIN = "admin@patchbay.test"
MAX_TABS = 80

# Whether the focused element, or the field around it, draws a focus ring: an outline or the
# theme's box-shadow ring, on the element or on the one or two wrappers Radix draws it on.
_FOCUS_SHOWN = """(element) => {
  for (let node = element, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
    const style = getComputedStyle(node);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
    if (style.boxShadow && style.boxShadow !== 'none') return true;
  }
  return false;
}"""

# Whether the element shows below the sticky navbar (or is inside it).
_NOT_OBSCURED = """(element) => {
  const bar = document.querySelector('header');
  if (!bar || bar.contains(element)) return true;
  return element.getBoundingClientRect().bottom > bar.getBoundingClientRect().bottom;
}"""


def _focused(locator: Locator) -> bool:
    return bool(locator.evaluate("(element) => element === document.activeElement"))


def tab_to(page: Page, target: Locator, *, backwards: bool = False) -> None:
    """Presses Tab until ``target`` has the focus, then checks that the focus shows."""
    key = "Shift+Tab" if backwards else "Tab"
    expect(target).to_be_attached()
    for _ in range(MAX_TABS):
        if _focused(target):
            break
        page.keyboard.press(key)
    else:
        raise AssertionError(f"{MAX_TABS} presses of {key} never reached {target}")
    assert target.evaluate(_FOCUS_SHOWN), f"no focus indicator on {target}"
    assert target.evaluate(_NOT_OBSCURED), f"{target} is under the navbar"


def choose(page: Page, group: Locator, option: Locator) -> None:
    """Chooses ``option`` of a group of radios as a keyboard does: Tab reaches the group (its
    chosen radio: one stop for the group), the arrows move along it and Space chooses."""
    tab_to(page, group.get_by_role("radio", checked=True))
    for _ in range(group.get_by_role("radio").count()):
        if _focused(option):
            break
        page.keyboard.press("ArrowRight")
    expect(option).to_be_focused()
    page.keyboard.press("Space")
    expect(option).to_be_checked()


def _settled(page: Page) -> None:
    expect(page.locator(".language-select").first).to_be_enabled()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def test_sign_in_and_change_the_language(page: Page) -> None:
    page.goto("/login")
    _settled(page)
    # The first Tab reaches the skip link, which takes the focus into the page's content.
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    tab_to(page, page.locator("#login-email"))
    page.keyboard.type(ALICE)
    tab_to(page, page.locator("#login-password"))
    page.keyboard.type(DEMO_PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("signed-in-since")).to_be_visible()

    language = page.locator(".language-select")
    tab_to(page, language)
    page.keyboard.press("ArrowDown")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bienvenue")


def test_filter_sort_and_page_a_list_then_open_a_service(page: Page) -> None:
    log_in_as(page, ADMIN, "/services")
    _settled(page)
    view = page.get_by_role("radio", name="Table")
    choose(page, page.get_by_role("radiogroup").filter(has=view), view)
    table = page.get_by_role("table", name="Services")
    expect(table).to_be_visible()

    header = table.get_by_role("columnheader", name=re.compile("^Reference"))
    sort = header.get_by_role("button")
    tab_to(page, sort)
    page.keyboard.press("Enter")
    expect(header).to_have_attribute("aria-sort", re.compile("ascending|descending"))
    _settled(page)

    pager = page.get_by_role("navigation", name="Pagination")
    tab_to(page, pager.get_by_role("button", name="Page 2"))
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"page=2"))
    _settled(page)

    reference = table.get_by_role("link").first.inner_text()
    search = page.get_by_label("Search services")
    tab_to(page, search, backwards=True)
    page.keyboard.type(reference)
    expect(page).to_have_url(re.compile(rf"search={re.escape(reference)}"))
    _settled(page)
    link = table.get_by_role("link", name=reference, exact=True)
    tab_to(page, link)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/services/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(reference)


def test_a_dialog_takes_the_focus_and_gives_it_back(page: Page) -> None:
    log_in_as(page, ALICE, "/services")
    _settled(page)
    trigger = page.get_by_test_id("import-button")
    tab_to(page, trigger)
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    # The focus is inside the dialog and stays there (no way out but closing it).
    assert dialog.evaluate("(element) => element.contains(document.activeElement)")
    for _ in range(12):
        page.keyboard.press("Tab")
        assert dialog.evaluate("(element) => element.contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(trigger).to_be_focused()


def test_move_through_the_maintenance_calendar(page: Page) -> None:
    log_in_as(page, ALICE, "/maintenances")
    _settled(page)
    views = page.get_by_test_id("maintenances-view")
    choose(page, views, views.get_by_role("radio").nth(1))
    calendar = page.get_by_test_id("maintenance-calendar")
    expect(calendar).to_be_visible()
    title = calendar.locator(".fc-toolbar-title")
    month = title.inner_text()
    tab_to(page, calendar.get_by_role("button", name=re.compile("^Next")))
    page.keyboard.press("Enter")
    expect(title).not_to_have_text(month)
    tab_to(page, calendar.get_by_role("button", name="Week"))
    page.keyboard.press("Enter")
    expect(calendar).to_have_attribute("data-view", "timeGridWeek")
    event = calendar.locator(".fc-event").first
    if event.count():
        tab_to(page, event)
        page.keyboard.press("Enter")
        expect(page.get_by_role("dialog")).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)


def test_reply_to_a_ticket(page: Page) -> None:
    log_in_as(page, ALICE, "/tickets")
    _settled(page)
    card = page.get_by_test_id("ticket-card").first
    tab_to(page, card.get_by_role("link").first)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("ticket-conversation")).to_be_visible()
    _settled(page)
    tab_to(page, page.locator("#ticket-reply"))
    page.keyboard.type("Answered by keyboard alone.")
    tab_to(page, page.get_by_test_id("reply-send"))
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("ticket-message").last).to_contain_text(
        "Answered by keyboard alone."
    )
