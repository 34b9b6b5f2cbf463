"""The profile page (spec 2, User profile): the owner updates it with their company and roles
locked; deleting one's own account asks first and logs out."""

import re
import time
import uuid
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.helpers import expect_home, log_in, log_in_as, open_user_menu
from tests.e2e.mail import latest_mail_to, link_in


def _my_profile(page: Page) -> None:
    open_user_menu(page)
    page.get_by_role("menuitem", name="My profile").click()
    expect(page).to_have_url(re.compile(r"/users/[0-9a-f-]{36}/?$"))


def test_the_owner_updates_their_profile_with_company_and_roles_locked(page: Page) -> None:
    log_in_as(page, "bob@acme-networks.test")
    _my_profile(page)
    page.get_by_role("button", name="Update").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Update user")).to_be_visible()
    expect(dialog.get_by_label("Company", exact=True)).to_be_disabled()
    for checkbox in dialog.get_by_role("checkbox").all():
        expect(checkbox).to_be_disabled()
    # Editing oneself shows the password fields, which may stay empty.
    expect(dialog.get_by_label("Password", exact=True)).to_have_value("")
    dialog.get_by_label("Phone number").fill("+33 6 11 22 33 44")
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_text(re.compile(r"User Bob .* has been updated\."))).to_be_visible()
    expect(page.locator("main")).to_contain_text("+33 6 11 22 33 44")


def test_deleting_ones_own_account_asks_then_logs_out(page: Page, mail_dir: Path) -> None:
    # A user of Acme created for the occasion, who confirms the account and logs in.
    log_in_as(page, "alice@acme-networks.test", "/users")
    page.get_by_role("button", name="Create user").click()
    dialog = page.get_by_role("dialog")
    email = f"leaving.{uuid.uuid4().hex[:8]}@acme-networks.test"
    dialog.get_by_label("First name").fill("Lea")
    dialog.get_by_label("Last name").fill("Ving")
    dialog.get_by_label("E-mail").fill(email)
    dialog.get_by_label("Password", exact=True).fill("Acme-leaving-2026")
    dialog.get_by_label("Confirm password", exact=True).fill("Acme-leaving-2026")
    since = time.time()
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_text("User Lea Ving has been created.")).to_be_visible()
    open_user_menu(page)
    page.get_by_role("menuitem", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/login"))

    page.goto(link_in(latest_mail_to(mail_dir, email, since)))
    page.get_by_label("Password", exact=True).fill("Lea-chosen-2026")
    page.get_by_label("Confirm password", exact=True).fill("Lea-chosen-2026")
    page.get_by_role("button", name="Confirm my account").click()
    expect(page).to_have_url(re.compile(r"accountConfirmed=1"))
    log_in(page, email, "Lea-chosen-2026", path=page.url)
    page.get_by_role("checkbox", name="I have read and accept the terms of use").click()
    page.get_by_role("button", name="Validate").click()
    # The user menu of a home page still arriving is replaced under the click (CI, seed
    # 828570771: "element was detached from the DOM"): the page's own content first.
    expect_home(page)

    _my_profile(page)
    page.get_by_role("button", name="Delete").click()
    confirm = page.get_by_role("alertdialog")
    expect(confirm.get_by_role("heading", name="Confirm delete account ?")).to_be_visible()
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    page.get_by_role("button", name="Delete").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Delete").click()
    expect(page).to_have_url(re.compile(r"/login"))

    log_in(page, email, "Lea-chosen-2026")
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login"))
