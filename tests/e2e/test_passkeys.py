"""Passkeys and the second-factor policy (issue 52) in the browser, with Chromium's virtual
authenticator (the DevTools WebAuthn domain through Playwright's CDP session): a customer
registers a passkey from the two-step login page, keeps the recovery codes it brings,
renames it, logs in with it without a password and uses it as the second step after a
password; new recovery codes replace the old; an administrator requires a second factor of a
company, whose user then reaches only the set-up until they have one."""

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import DEMO_PASSWORD
from tests.e2e.helpers import expect_home, log_in_as, open_user_menu

BOB = "bob@acme-networks.test"
CLAIRE = "claire@globex.test"
PATH = "/account/second-factor"


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"locale": "en-GB"}


def _authenticator(context: BrowserContext, page: Page) -> tuple[Any, str]:
    """A platform authenticator with resident keys and user verification, that says yes."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def _log_out(page: Page) -> None:
    open_user_menu(page)
    page.get_by_role("menuitem", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/login/?$"))


def _password(page: Page, email: str) -> None:
    page.goto("/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password", exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Login").click()


def _add_passkey(page: Page, name: str) -> None:
    page.get_by_label("Name of the new passkey").fill(name)
    page.get_by_role("button", name="Add a passkey").click()


def test_register_a_passkey_and_sign_in_with_it(context: BrowserContext, page: Page) -> None:
    cdp, authenticator = _authenticator(context, page)
    log_in_as(page, BOB, PATH)
    expect(page.get_by_test_id("no-passkeys")).to_be_visible()
    _add_passkey(page, "Work laptop")
    # The first second factor brings the ten recovery codes, shown once.
    codes = page.get_by_test_id("recovery-codes").locator("code")
    expect(codes).to_have_count(10)
    page.get_by_role("button", name="I have saved them").click()
    row = page.get_by_test_id("passkey-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Work laptop")
    expect(row).to_contain_text("Last used: —")
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    (credential,) = credentials["credentials"]
    assert credential["isResidentCredential"] is True

    row.get_by_role("button", name="Rename").click()
    page.get_by_label("Name", exact=True).fill("Bob's laptop")
    page.get_by_role("button", name="Save").click()
    expect(row).to_contain_text("Bob's laptop")

    # New recovery codes replace the old, after a confirmation.
    page.get_by_role("button", name="Generate new recovery codes").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Generate").click()
    expect(codes).to_have_count(10)
    page.get_by_role("button", name="I have saved them").click()
    expect(page.get_by_text("Recovery codes left: 10")).to_be_visible()
    _log_out(page)

    # No e-mail, no password: the browser's passkey names the account.
    page.get_by_role("button", name="Log in with a passkey").click()
    expect_home(page)
    page.goto(PATH)
    expect(page.get_by_test_id("passkey-row")).not_to_contain_text("Last used: —")
    _log_out(page)

    # After the password, the passkey is the second step.
    _password(page, BOB)
    expect(page.get_by_role("heading", name="Two-step login")).to_be_visible()
    page.get_by_role("button", name="Use a passkey").click()
    expect_home(page)

    # Deleted after a confirmation: the page has none left, and the browser's copy is stale.
    page.goto(PATH)
    page.get_by_test_id("passkey-row").get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Bob's laptop")
    dialog.get_by_role("button", name="Delete").click()
    expect(page.get_by_test_id("no-passkeys")).to_be_visible()
    expect(dialog).to_have_count(0)


def test_a_passkey_the_browser_refuses_says_so(context: BrowserContext, page: Page) -> None:
    cdp, authenticator = _authenticator(context, page)
    cdp.send(
        "WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": False}
    )
    page.goto("/login")
    page.get_by_role("button", name="Log in with a passkey").click()
    expect(page.get_by_role("alert")).to_contain_text(
        re.compile("cancelled or timed out|could not be used")
    )
    expect(page).to_have_url(re.compile(r"/login/?$"))


def test_a_company_whose_policy_requires_a_second_factor(
    context: BrowserContext, page: Page
) -> None:
    log_in_as(page, "admin@patchbay.test")
    open_user_menu(page)
    page.get_by_role("menuitem", name="Companies").click()
    expect(page.get_by_role("heading", level=1, name="Companies")).to_be_visible()
    page.get_by_label("Company name").fill("Globex")
    page.get_by_role("button", name="Search").click()
    globex = page.get_by_test_id("company-row").filter(has_text="Globex")
    switch = globex.get_by_role("switch")
    expect(switch).not_to_be_checked()
    switch.click()
    expect(switch).to_be_checked()
    _log_out(page)

    _authenticator(context, page)
    _password(page, CLAIRE)
    expect(page).to_have_url(re.compile(rf"{PATH}/?$"))
    expect(
        page.get_by_text("Your account requires two-step login: set it up to continue.")
    ).to_be_visible()
    # Nothing else opens until a factor is set up.
    page.goto("/services")
    expect(page).to_have_url(re.compile(rf"{PATH}/?$"))
    _add_passkey(page, "Claire's key")
    expect(page.get_by_test_id("recovery-codes").locator("code")).to_have_count(10)
    page.get_by_role("button", name="I have saved them").click()
    expect_home(page)
    page.goto("/services")
    expect(page).to_have_url(re.compile(r"/services/?$"))
