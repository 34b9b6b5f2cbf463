"""Webhooks (issue 51): a customer's user manager opens the page from the user menu, registers
an endpoint on the tests' HTTPS receiver, copies its secret (shown once), sends a test event,
reads in the delivery log that it was delivered — the receiver verifies its signature with the
secret — and deletes the endpoint; a user who may not manage webhooks sees neither the entry
nor the page."""

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from standardwebhooks import Webhook

from tests.e2e.helpers import expect_clipboard, log_in_as, open_user_menu
from tests.webhook_receiver import Receiver

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"  # Acme, ROLE_ACCESS_MONITORING only
PATH = "/account/webhooks"


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"locale": "en-GB", "permissions": ["clipboard-read", "clipboard-write"]}


def test_an_endpoint_is_registered_tested_logged_and_deleted(
    page: Page, webhook_receiver: Receiver
) -> None:
    log_in_as(page, ALICE)
    open_user_menu(page)
    page.get_by_role("menuitem", name="Webhooks").click()
    expect(page).to_have_url(re.compile(rf"{PATH}/?$"))
    expect(page.get_by_role("heading", level=1, name="Webhooks")).to_be_visible()

    page.get_by_role("button", name="Add an endpoint").click()
    dialog = page.get_by_role("dialog")
    # Alice has two companies: the endpoint is her main company's unless she chooses.
    expect(dialog.get_by_label("Company")).to_contain_text("Acme")
    dialog.get_by_role("button", name="Add the endpoint").click()
    expect(dialog.get_by_text("Please give a URL.")).to_be_visible()
    dialog.get_by_label("URL").fill("http://noc.example.com/hooks")
    dialog.get_by_role("checkbox", name="Ticket created").click()
    dialog.get_by_role("button", name="Add the endpoint").click()
    expect(dialog.get_by_text("The URL must start with https://.")).to_be_visible()
    url = webhook_receiver.url("/e2e")
    dialog.get_by_label("URL").fill(url)
    dialog.get_by_label("Description").fill("NOC bus")
    dialog.get_by_role("button", name="Add the endpoint").click()
    expect(dialog).to_have_count(0)

    shown = page.get_by_test_id("new-secret")
    expect(shown).to_have_value(re.compile(r"^whsec_[A-Za-z0-9+/]{43}=$"))
    secret = shown.input_value()
    page.get_by_role("button", name="Copy", exact=True).click()
    expect(page.get_by_role("button", name="Copied", exact=True)).to_be_visible()
    expect_clipboard(page, secret)
    page.get_by_role("button", name="I have copied it").click()
    expect(shown).to_have_count(0)

    row = page.get_by_test_id("webhook-row").filter(has_text=url)
    expect(row).to_contain_text("Enabled")
    expect(row).to_contain_text("NOC bus")
    expect(row).to_contain_text("Events: Ticket created")

    received = len(webhook_receiver.received)
    row.get_by_role("button", name="Send a test event").click()
    log = page.get_by_role("dialog")
    expect(log.get_by_role("heading", name="Delivery log")).to_be_visible()
    entry = log.get_by_test_id("delivery-row").first
    for _ in range(20):
        if "Delivered" in entry.inner_text():
            break
        page.wait_for_timeout(500)
        log.get_by_role("button", name="Refresh").click()
    expect(entry).to_contain_text("Delivered")
    expect(entry).to_contain_text("Test event")
    expect(entry).to_contain_text("200")
    [delivered] = [r for r in webhook_receiver.received[received:] if r.path == "/e2e"]
    event = Webhook(secret).verify(delivered.body, delivered.headers)
    assert event["type"] == "ping"
    assert json.loads(delivered.body)["data"]["webhook"].startswith("/api/webhooks/")
    log.get_by_role("button", name="Close").click()

    page.reload()
    expect(page.get_by_test_id("webhook-row").filter(has_text=url)).to_be_visible()
    expect(page.get_by_test_id("new-secret")).to_have_count(0)
    row.get_by_role("button", name="Delete").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Delete").click()
    expect(page.get_by_test_id("webhook-row").filter(has_text=url)).to_have_count(0)


def test_a_user_who_may_not_manage_webhooks_gets_neither_entry_nor_page(page: Page) -> None:
    log_in_as(page, BOB)
    open_user_menu(page)
    expect(page.get_by_role("menuitem", name="Webhooks")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto(PATH)
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()
