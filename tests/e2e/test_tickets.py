"""Tickets (spec 2): tiles, filters bound to the URL through reload and back, both views and the
remembered view mode, the card sort, a ticket with its attachments, a hostile description left
inert, another company's ticket not found, and the process tab in English and French."""

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from portal.provider.demo_data.tickets import HOSTILE
from tests.e2e.helpers import DEMO_PASSWORD, choose_language, log_in_as

ALICE = "alice@acme-networks.test"
CLAIRE = "claire@globex.test"


def _provider_tickets(portal_url: str, email: str = ALICE) -> list[dict[str, Any]]:
    """The user's tickets as the provider answers them (the test finds its data there)."""
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        provider.post("/login", json={"username": email, "password": DEMO_PASSWORD})
        answer = provider.get("/api/tickets", params={"itemsPerPage": 100})
        return answer.json()["hydra:member"]


def _open_tickets(page: Page, query: str = "", email: str = ALICE) -> None:
    log_in_as(page, email, f"/tickets{query}")
    expect(page.get_by_role("heading", level=1, name="Tickets")).to_be_visible()
    _settled(page)


def _settled(page: Page) -> None:
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def _states_shown(page: Page) -> set[str]:
    _settled(page)
    chips = page.get_by_test_id("ticket-card").locator("[data-state]")
    return {chip.get_attribute("data-state") or "" for chip in chips.all()}


def test_the_closed_tile_links_to_the_filtered_list(page: Page) -> None:
    _open_tickets(page)
    closed = page.get_by_test_id("tile-closed")
    expect(closed).to_have_text(re.compile(r"^\d+$"))
    expected = int(closed.inner_text())
    page.get_by_text("Closed tickets").click()
    expect(page).to_have_url(re.compile(r"/tickets/?\?status=closed$"))
    expect(page.get_by_test_id("tickets-count")).to_have_text(
        "1 ticket found" if expected == 1 else f"{expected} tickets found"
    )
    assert _states_shown(page) == {"closed"}


def test_filters_live_in_the_url_through_reload_and_back(page: Page) -> None:
    _open_tickets(page)
    page.get_by_test_id("status-filter").click()
    page.get_by_role("checkbox", name="Closed").click()
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(r"status=closed"))
    assert _states_shown(page) == {"closed"}

    page.reload()
    expect(page.get_by_test_id("status-filter")).to_contain_text("1")
    expect(page.get_by_test_id("ticket-card").first).to_be_visible()
    assert _states_shown(page) == {"closed"}

    link = page.get_by_test_id("ticket-card").first.get_by_role("link")
    number = link.inner_text()
    link.click()
    expect(page).to_have_url(re.compile(r"/tickets/[0-9a-f-]{36}/?$"))
    expect(page.get_by_role("heading", level=1, name=number)).to_be_visible()
    crumbs = page.get_by_role("navigation", name="Breadcrumbs")
    expect(crumbs).to_contain_text("Home")
    expect(crumbs).to_contain_text("Tickets")
    expect(crumbs).to_contain_text(number)

    page.go_back()
    expect(page).to_have_url(re.compile(r"/tickets/?\?status=closed"))
    expect(page.get_by_test_id("ticket-card").first).to_be_visible()
    assert _states_shown(page) == {"closed"}


def test_the_subject_filter_ignores_case_and_accents(page: Page) -> None:
    _open_tickets(page)
    page.get_by_label("Subject").fill("  CONTENU SUSPECT COLLE ")
    expect(page).to_have_url(re.compile(r"subject=CONTENU"))
    expect(page.get_by_test_id("tickets-count")).to_have_text("1 ticket found")
    expect(page.get_by_test_id("ticket-card")).to_contain_text(HOSTILE.subject_fr)
    page.reload()
    expect(page.get_by_label("Subject")).to_have_value("CONTENU SUSPECT COLLE")
    expect(page.get_by_test_id("ticket-card")).to_have_count(1)
    number = page.get_by_test_id("ticket-card").get_by_role("link").inner_text()
    page.get_by_role("button", name="Clear filters").click()
    page.get_by_label("Ticket number").fill(number)
    expect(page).to_have_url(re.compile(rf"id=%23{number[1:]}|id=.{{0,3}}{number[1:]}"))
    expect(page.get_by_test_id("ticket-card")).to_have_count(1)


def test_both_views_and_the_view_mode_is_remembered(page: Page) -> None:
    _open_tickets(page)
    expect(page.get_by_test_id("ticket-card")).to_have_count(12)
    page.get_by_role("radio", name="Table").click()
    table = page.get_by_role("table", name="Tickets")
    expect(table).to_be_visible()
    for header in ("Id", "Status", "Priority", "Subject", "Account name", "Created"):
        expect(table.get_by_role("columnheader", name=header)).to_be_visible()
    subject = table.get_by_test_id("ticket-subject").first
    expect(subject).to_have_attribute("title", subject.inner_text())
    expect(table.get_by_role("link").first).to_have_text(re.compile(r"^#\d+$"))
    page.reload()
    expect(page.get_by_role("table", name="Tickets")).to_be_visible()
    other = page.context.new_page()
    other.goto("/tickets")
    expect(other.get_by_role("table", name="Tickets")).to_be_visible()
    other.get_by_role("radio", name="Cards").click()
    expect(other.get_by_test_id("ticket-card").first).to_be_visible()


def test_the_card_mode_sorts_and_pages(page: Page) -> None:
    _open_tickets(page, email="admin@patchbay.test")
    page.get_by_test_id("card-sort").click()
    page.get_by_role("option", name="Id").click()
    expect(page).to_have_url(re.compile(r"order\[id\]=desc"))
    _settled(page)
    numbers = [
        int(text[1:])
        for text in page.get_by_test_id("ticket-card").get_by_role("link").all_inner_texts()
    ]
    assert numbers == sorted(numbers, reverse=True)
    page.get_by_test_id("card-direction").click()
    expect(page).to_have_url(re.compile(r"order\[id\]=asc"))
    _settled(page)
    numbers = [
        int(text[1:])
        for text in page.get_by_test_id("ticket-card").get_by_role("link").all_inner_texts()
    ]
    assert numbers == sorted(numbers)
    page.get_by_role("combobox", name="Rows per page").click()
    page.get_by_role("option", name="24").click()
    expect(page.get_by_test_id("ticket-card")).to_have_count(24)
    expect(page).to_have_url(re.compile(r"itemsPerPage=24"))


def test_a_ticket_shows_its_fields_and_downloads_an_attachment(
    page: Page, portal_url: str, tmp_path: Path
) -> None:
    ticket = next(
        t
        for t in _provider_tickets(portal_url)
        if any(a["filename"].endswith(".txt") for a in t["attachments"])
    )
    log_in_as(page, ALICE, f"/tickets/{ticket['id']}")
    expect(page.get_by_role("heading", level=1, name=f"#{ticket['number']}")).to_be_visible()
    expect(page.get_by_test_id("ticket-subject")).to_have_text(ticket["subject"])
    requester = page.get_by_test_id("ticket-requester").get_by_role("link")
    expect(requester).to_have_attribute("href", f"mailto:{ticket['requesterEmail']}")
    expect(page.get_by_test_id("ticket-account")).to_have_text(ticket["accountName"])
    description = page.get_by_test_id("ticket-description")
    expect(description).to_be_visible()
    page.get_by_role("button", name="Description").click()
    expect(description).to_have_count(0)
    page.get_by_role("button", name="Description").click()
    expect(description).to_be_visible()

    attachments = page.get_by_test_id("ticket-attachments")
    name = next(a["filename"] for a in ticket["attachments"] if a["filename"].endswith(".txt"))
    with page.expect_download() as download_info:
        attachments.get_by_role("link", name=name).click()
    download = download_info.value
    assert download.suggested_filename == name
    target = tmp_path / name
    download.save_as(target)
    assert "%LINK-3-UPDOWN" in target.read_text()
    if ticket["service"]:
        service = page.get_by_test_id("ticket-service").get_by_role("link")
        expect(service).to_have_text(ticket["serviceReference"])


def test_a_hostile_description_stays_inert(page: Page, portal_url: str) -> None:
    ticket = next(t for t in _provider_tickets(portal_url) if t["subject"] == HOSTILE.subject_fr)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    log_in_as(page, ALICE, f"/tickets/{ticket['id']}")
    description = page.get_by_test_id("ticket-description")
    expect(description).to_contain_text("Survolez-moi")
    description.get_by_text("Survolez-moi").hover()
    description.get_by_text("cliquez ici").click()  # an <a> left without its href
    page.wait_for_timeout(1000)
    assert dialogs == []
    assert description.locator("script, iframe, img, svg, style, form, input").count() == 0
    hostile = page.evaluate(
        """(root) => [...root.querySelectorAll('*')].filter(e =>
            [...e.attributes].some(a => a.name.startsWith('on') || a.name === 'style'
              || /^\\s*(javascript|data|vbscript):/i.test(a.value))).length""",
        description.element_handle(),
    )
    assert hostile == 0
    expect(page).to_have_url(re.compile(rf"/tickets/{ticket['id']}/?$"))


def test_another_companys_ticket_is_not_found(page: Page, portal_url: str) -> None:
    foreign = _provider_tickets(portal_url)[0]
    log_in_as(page, CLAIRE, f"/tickets/{foreign['id']}")
    expect(page.get_by_text("This ticket does not exist or you cannot see it.")).to_be_visible()
    expect(page.get_by_role("navigation", name="Breadcrumbs")).to_have_count(0)


def test_the_process_tab_in_english_and_french(page: Page) -> None:
    _open_tickets(page)
    page.get_by_role("tab", name="Ticket process").click()
    expect(page.get_by_role("img", name="Incident ticket flow")).to_be_visible()
    expect(page.get_by_role("img", name="Escalation path")).to_be_visible()
    expect(page.get_by_test_id("escalation-note")).to_have_text(
        "In absolute emergencies, after phoning the Helpdesk, the request can be escalated "
        "along the escalation path."
    )
    choose_language(page, "Français")
    expect(page.get_by_role("img", name="Chemin d'escalade")).to_be_visible()
    expect(page.get_by_test_id("escalation-note")).to_contain_text(
        "En cas d'urgence absolue, après avoir appelé le Helpdesk"
    )
    expect(page.get_by_role("img", name="Traitement d'un ticket d'incident")).to_contain_text(
        "Diagnostic et réparation"
    )


def test_a_tab_reached_by_keyboard_shows_one_ring_on_its_label(page: Page) -> None:
    """The tab drew the theme's ring on its label and the global one around itself, which the
    tab list's scrolling cut down to two bars beside the tab."""
    _open_tickets(page)
    page.get_by_role("tab", name="Tickets").focus()
    page.keyboard.press("ArrowRight")
    process = page.get_by_role("tab", name="Ticket process")
    expect(process).to_be_focused()
    assert process.evaluate("(tab) => tab.matches(':focus-visible')")
    outline = "(element) => getComputedStyle(element).outlineStyle"
    assert process.evaluate(outline) == "none"
    assert process.locator(".rt-BaseTabListTriggerInner").evaluate(outline) == "solid"
