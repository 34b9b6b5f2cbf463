"""Contacts (spec 2): the generic contacts as mailto links, the user's companies chosen at first,
the sales contacts with the companies they serve, then every manager and assistant of the demo's
tree once each (it holds a loop: Hélène Marchand's assistant Nathalie Roux has her as manager),
the message when no company is chosen, the company search scoped to the user, and French."""

import re

from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import choose_language, log_in_as, unreadable_table

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"
# The demo's sales team as Alice's two companies reach it (portal/provider/demo_data/people.py).
SALES = {
    "Thomas Girard": ["Acme Networks"],
    "Julien Lefèvre": ["Acme Networks"],
    "Emma Clarke": ["Acme Networks Benelux"],
}
FURTHER = {
    "Olivier Bertin",
    "Camille Dubois",
    "Hélène Marchand",
    "Nathalie Roux",
    "Marc-Antoine Petit",
    "Priya Raman",
    "Sarah Whitfield",
    "Lucy Hughes",
}


def _open_contacts(page: Page, email: str = ALICE) -> None:
    log_in_as(page, email)
    page.get_by_role("link", name="Contacts").first.click()
    expect(page.get_by_role("heading", level=1, name="Contacts")).to_be_visible()
    expect(
        page.get_by_test_id("sales-contacts").get_by_test_id("contact-card").first
    ).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def _names(cards: Locator) -> list[str]:
    return [name.strip() for name in cards.get_by_role("heading", level=3).all_inner_texts()]


def test_the_generic_contacts_are_mailto_links(page: Page) -> None:
    _open_contacts(page)
    for key, address in [
        ("legal", "legal@patchbay.test"),
        ("invoicing", "invoicing@patchbay.test"),
        ("support", "helpdesk@patchbay.test"),
        ("ticketing", "tickets@patchbay.test"),
    ]:
        link = page.get_by_test_id(f"generic-contact-{key}").get_by_role("link")
        expect(link).to_have_attribute("href", f"mailto:{address}")


def test_sales_contacts_then_every_manager_and_assistant_once(page: Page) -> None:
    _open_contacts(page)
    chosen = page.get_by_test_id("contacts-companies")
    expect(chosen).to_contain_text("Acme Networks")
    expect(chosen).to_contain_text("Acme Networks Benelux")

    sales = page.get_by_test_id("sales-contacts").get_by_test_id("contact-card")
    expect(sales).to_have_count(len(SALES))
    assert sorted(_names(sales)) == sorted(SALES)
    for name, companies in SALES.items():
        card = sales.filter(has=page.get_by_role("heading", name=name, exact=True))
        for company in companies:
            expect(card.get_by_text(company, exact=True)).to_be_visible()
    julien = sales.filter(has=page.get_by_role("heading", name="Julien Lefèvre"))
    expect(julien).to_contain_text("Corporate Sales Manager")
    expect(julien.get_by_role("link", name="+33 1 99 00 12 10")).to_have_attribute(
        "href", "tel:+33199001210"
    )
    expect(julien.get_by_role("link", name="+33 6 39 98 12 10")).to_have_attribute(
        "href", "tel:+33639981210"
    )
    expect(julien.get_by_role("link", name="sales@patchbay.test")).to_have_attribute(
        "href", "mailto:sales@patchbay.test"
    )

    further = page.get_by_test_id("further-contacts").get_by_test_id("contact-card")
    expect(further).to_have_count(len(FURTHER))
    names = _names(further)
    assert sorted(names) == sorted(FURTHER)  # each once: no duplicate, no endless loop
    every_card = _names(page.get_by_test_id("contact-card"))
    assert len(every_card) == len(set(every_card)) == len(SALES) + len(FURTHER)


def test_with_no_company_chosen_the_page_asks_for_one(page: Page) -> None:
    _open_contacts(page)
    expect(page.get_by_test_id("contacts-select-one")).to_have_count(0)
    page.get_by_role("button", name="Remove Acme Networks Benelux", exact=True).click()
    expect(page.get_by_test_id("sales-contacts").get_by_test_id("contact-card")).to_have_count(2)
    expect(page.get_by_text("Emma Clarke")).to_have_count(0)
    page.get_by_role("button", name="Remove Acme Networks", exact=True).click()
    expect(page.get_by_test_id("contacts-select-one")).to_have_text("Select at least one entry.")
    expect(page.get_by_test_id("contact-card")).to_have_count(0)

    search = page.get_by_role("searchbox", name="Add a company")
    search.fill("bene")
    page.get_by_role("option", name="Acme Networks Benelux").click()
    expect(page.get_by_test_id("contacts-select-one")).to_have_count(0)
    expect(page.get_by_test_id("sales-contacts")).to_contain_text("Emma Clarke")
    page.get_by_role("button", name="All my companies").click()
    expect(page.get_by_test_id("sales-contacts").get_by_test_id("contact-card")).to_have_count(3)


def test_a_failed_read_leaves_no_card_of_the_previous_choice(
    page: Page, portal_settings: dict[str, str]
) -> None:
    """The cards on screen always answer the companies chosen: when a new choice cannot be
    read, the previous choice's cards go, and the page says so once, where they were."""
    _open_contacts(page)
    with unreadable_table(portal_settings, "company_sales"):
        page.get_by_role("button", name="Remove Acme Networks Benelux", exact=True).click()
        expect(page.get_by_test_id("contact-card")).to_have_count(0)
        failure = page.get_by_test_id("contacts-failure")
        expect(failure).to_contain_text("The contacts could not be loaded.")
        assert page.get_by_role("alert").count() == 0
    failure.get_by_role("button", name="Try again").click()
    expect(failure).to_have_count(0)
    sales = page.get_by_test_id("sales-contacts").get_by_test_id("contact-card")
    expect(sales).to_have_count(2)
    expect(page.get_by_text("Emma Clarke")).to_have_count(0)


def test_a_customer_finds_only_their_own_companies(page: Page) -> None:
    _open_contacts(page, BOB)
    expect(page.get_by_test_id("contacts-companies")).to_have_text(re.compile(r"^Acme Networks$"))
    page.get_by_role("searchbox", name="Add a company").fill("glob")
    page.wait_for_timeout(1500)  # past the debounce and the provider's answer
    # No list of matches at all (the language select's options are options too).
    expect(page.get_by_role("listbox")).to_have_count(0)
    # Benelux's representative and the people only Benelux's tree reaches stay out.
    names = _names(page.get_by_test_id("contact-card"))
    assert "Julien Lefèvre" in names
    assert not {"Emma Clarke", "Priya Raman", "Sarah Whitfield", "Lucy Hughes"} & set(names)


def test_contacts_in_french(page: Page) -> None:
    _open_contacts(page)
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Contacts généraux")).to_be_visible()
    expect(page.get_by_role("heading", name="Leurs responsables et assistants")).to_be_visible()
    julien = page.get_by_test_id("contact-card").filter(
        has=page.get_by_role("heading", name="Julien Lefèvre")
    )
    expect(julien).to_contain_text("Responsable des ventes grands comptes")
    page.get_by_role("button", name="Retirer Acme Networks Benelux", exact=True).click()
    expect(page.get_by_role("button", name="Retirer Acme Networks Benelux")).to_have_count(0)
    page.get_by_role("button", name="Retirer Acme Networks", exact=True).click()
    expect(page.get_by_test_id("contacts-select-one")).to_have_text(
        "Sélectionnez au moins une entrée."
    )
