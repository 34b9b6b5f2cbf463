"""A company's single sign-on screen (issue 52), for administrators: the company chosen by
name, its identity provider saved (the secret never shown again), a refusal shown under its
field, removal; a customer sees neither the menu entry nor the screen."""

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in_as, open_user_menu

PATH = "/admin/single-sign-on"


def _choose_globex(page: Page) -> None:
    log_in_as(page, "admin@patchbay.test")
    open_user_menu(page)
    page.get_by_role("menuitem", name="Single sign-on").click()
    expect(page).to_have_url(re.compile(PATH + "$"))
    page.get_by_label("Company").fill("Globex")
    page.get_by_role("button", name="Globex", exact=True).click()
    expect(page.get_by_role("heading", name="Single sign-on of Globex")).to_be_visible()


def test_an_administrator_sets_a_companys_single_sign_on(page: Page) -> None:
    _choose_globex(page)
    page.get_by_label("Issuer URL").fill("https://login.globex.test/realms/globex")
    page.get_by_label("Client ID").fill("patchbay-portal")
    page.get_by_label("Client secret").fill("s3cret-of-globex")
    page.get_by_label("E-mail domains").fill("globex.test\nglobex.example")
    page.get_by_text("Users may also log in with a password").click()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("The single sign-on settings are saved.")

    page.reload()
    expect(page.get_by_label("Issuer URL")).to_have_value("https://login.globex.test/realms/globex")
    expect(page.get_by_label("E-mail domains")).to_have_value("globex.example\nglobex.test")
    expect(page.get_by_label("Client secret")).to_have_value("")
    expect(page.get_by_label("Client secret")).to_have_attribute(
        "placeholder", "Stored: leave empty to keep it"
    )
    expect(page.get_by_role("switch")).to_have_count(2)
    expect(page.get_by_role("switch").first).not_to_be_checked()

    page.get_by_label("Issuer URL").fill("http://login.globex.test")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The issuer must be an HTTPS address.")).to_be_visible()

    page.get_by_role("button", name="Remove single sign-on").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Remove").click()
    expect(page.get_by_role("status")).to_contain_text("Single sign-on is removed")
    expect(page.get_by_label("Issuer URL")).to_have_value("")


def test_at_phone_width_the_redirect_address_stays_in_its_card(page: Page) -> None:
    """The address to register at the identity provider ran out of the card, cut, on a phone."""
    page.set_viewport_size({"width": 390, "height": 844})
    _choose_globex(page)
    address = page.get_by_test_id("sso-callback")
    expect(address).to_have_text(re.compile(r"^https?://.+/_portal/sso/callback$"))
    box = address.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 390 - 16, f"the address ends at {box['x'] + box['width']} px"


def test_a_customer_cannot_open_it(page: Page) -> None:
    log_in_as(page, "claire@globex.test")
    open_user_menu(page)
    expect(page.get_by_role("menuitem", name="Single sign-on")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto(PATH)
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()
