"""Downloads go through the one message handler (spec 8): a file that cannot be had is reported
like any failed call, never handed to the browser as a raw error page or file."""

import re

from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.helpers import log_in_as, open_user_menu


def test_an_export_after_the_session_ended_signs_out_back_to_the_list(
    context: BrowserContext, page: Page
) -> None:
    log_in_as(page, "alice@acme-networks.test", "/services")
    expect(page.get_by_role("link", name="Export")).to_be_visible()

    other = context.new_page()
    other.goto("/")
    open_user_menu(other)
    other.get_by_role("menuitem", name="Logout").click()
    expect(other).to_have_url(re.compile(r"/login"))

    page.get_by_role("link", name="Export").click()
    expect(page).to_have_url(re.compile(r"/login/?\?redirect=%2Fservices"))
