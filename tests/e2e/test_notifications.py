"""The Notifications page (issue 50, item 4): reached from the user menu, in English and French;
a preference saved is kept."""

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in_as, open_user_menu

PATH = "/account/notifications"


def test_the_page_opens_from_the_user_menu_in_english_and_french(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test")
    open_user_menu(page)
    page.get_by_role("menuitem", name="Notifications").click()
    expect(page).to_have_url(re.compile(PATH + "/?$"))
    expect(page.get_by_role("heading", name="E-mails you receive")).to_be_visible()
    expect(page.get_by_role("radio", name="All my companies' services")).to_be_checked()
    expect(page.get_by_role("radio", name="The tickets I opened")).to_be_checked()
    # The navbar's select, not the e-mails' one ("Language of the e-mails").
    page.get_by_role("combobox", name="Language", exact=True).select_option(label="Français")
    expect(page.get_by_role("heading", name="Les e-mails que vous recevez")).to_be_visible()
    expect(page.get_by_role("radio", name="Tous les services de mes sociétés")).to_be_checked()
    expect(page.get_by_label("Fuseau horaire des e-mails")).to_be_visible()


def test_a_preference_saved_is_kept_after_a_reload(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test", PATH)
    save = page.get_by_role("button", name="Save")
    expect(save).to_be_disabled()
    # Controlled by the page's state: a choice shows once the server has taken it.
    for choice in ("No maintenance notice", "All my companies' tickets"):
        page.get_by_role("radio", name=choice).click()
        expect(page.get_by_role("radio", name=choice)).to_be_checked()
    page.get_by_label("Time zone of the e-mails").select_option("Europe/Paris")
    save.click()
    expect(page.get_by_text("Your notification preferences have been saved.")).to_be_visible()
    expect(save).to_be_disabled()

    page.reload()
    expect(page.get_by_role("radio", name="No maintenance notice")).to_be_checked()
    expect(page.get_by_role("radio", name="All my companies' tickets")).to_be_checked()
    expect(page.get_by_label("Time zone of the e-mails")).to_have_value("Europe/Paris")
