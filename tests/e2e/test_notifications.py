"""The Notifications page (issue 50, item 4): reached from the user menu, in English and French;
a preference saved is kept; a company's user managers add its extra notice addresses (waiting
for confirmation until the link sent is followed), which no one else sees."""

import re
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in_as, open_user_menu
from tests.e2e.mail import latest_mail_to

PATH = "/account/notifications"


def test_the_page_opens_from_the_user_menu_in_english_and_french(page: Page) -> None:
    # Alice's preferences are the defaults whatever the order: the test that saves some is Bob's.
    log_in_as(page, "alice@acme-networks.test")
    open_user_menu(page)
    page.get_by_role("menuitem", name="Notifications").click()
    expect(page).to_have_url(re.compile(PATH + "/?$"))
    expect(page.get_by_role("heading", name="E-mails you receive")).to_be_visible()
    expect(page.get_by_role("radio", name="All my companies' services")).to_be_checked()
    expect(page.get_by_role("radio", name="The tickets I opened")).to_be_checked()
    # The navbar's select, not the e-mails' ones (the page's and each address form's).
    page.get_by_role("banner").get_by_label("Language").select_option(label="Français")
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


def test_a_user_manager_adds_an_address_that_waits_for_its_confirmation(
    page: Page, mail_dir: Path
) -> None:
    log_in_as(page, "alice@acme-networks.test", PATH)
    acme = page.get_by_test_id("notice-addresses").filter(
        has=page.get_by_role("heading", name="Acme Networks", exact=True)
    )
    expect(page.get_by_test_id("notice-addresses")).to_have_count(2)  # Acme and its Benelux
    email = f"noc.{int(time.time())}@acme-networks.test"
    since = time.time()
    acme.get_by_label("Add an address").fill(email)
    acme.get_by_label("Language").select_option("fr")
    acme.get_by_role("button", name="Add").click()
    expect(page.get_by_text(f"{email} has been added")).to_be_visible()
    added = acme.get_by_test_id("notice-address").filter(has_text=email)
    expect(added.get_by_text("Waiting for confirmation")).to_be_visible()
    assert "confirm-notices" in latest_mail_to(mail_dir, email, since).as_string()

    page.reload()
    expect(added.get_by_text("Waiting for confirmation")).to_be_visible()
    added.get_by_role("button", name=f"Remove {email}").click()
    expect(page.get_by_text(f"{email} no longer receives the notices of Acme")).to_be_visible()
    expect(added).to_have_count(0)


def test_a_user_who_does_not_manage_users_sees_no_address(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test", PATH)
    expect(page.get_by_role("heading", name="E-mails you receive")).to_be_visible()
    expect(page.get_by_role("radio", name="The tickets I opened")).to_be_visible()
    expect(page.get_by_test_id("notice-addresses-card")).to_have_count(0)
    expect(page.get_by_role("heading", name="Extra notice addresses")).to_have_count(0)
