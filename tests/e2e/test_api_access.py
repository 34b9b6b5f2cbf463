"""API access (issue 51): a customer's user manager opens the page from the user menu, makes a
token, copies it (shown once), reads their own services with it as any HTTP client would, and
revokes it; the page's examples name the user's own services and its reference opens; a user
who may not make tokens sees neither the entry nor the page."""

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import expect_clipboard, log_in_as, open_user_menu

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"  # Acme, ROLE_ACCESS_MONITORING only
PATH = "/account/api-access"


@pytest.fixture
def context_options() -> dict[str, Any]:
    return {"locale": "en-GB", "permissions": ["clipboard-read", "clipboard-write"]}


def test_a_token_is_made_copied_used_and_revoked(page: Page, portal_url: str) -> None:
    log_in_as(page, ALICE)
    open_user_menu(page)
    page.get_by_role("menuitem", name="API access").click()
    expect(page).to_have_url(re.compile(rf"{PATH}/?$"))
    expect(page.get_by_role("heading", level=1, name="API access")).to_be_visible()

    page.get_by_role("button", name="Make the token").click()
    expect(page.get_by_text("Please give a name.")).to_be_visible()
    page.get_by_label("Name").fill("NOC dashboard")
    page.get_by_role("checkbox", name="Services").click()
    page.get_by_role("button", name="Make the token").click()
    shown = page.get_by_test_id("new-token")
    expect(shown).to_have_value(re.compile(r"^pbt_[\w-]{43}$"))
    token = shown.input_value()
    page.get_by_role("button", name="Copy", exact=True).click()
    expect(page.get_by_role("button", name="Copied", exact=True)).to_be_visible()
    expect_clipboard(page, token)

    row = page.get_by_test_id("token-row").filter(has_text="NOC dashboard")
    expect(row).to_contain_text("Active")
    expect(row).to_contain_text("Reads: Services")

    bearer = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=f"{portal_url}/provider", headers=bearer) as api:
        services = api.get("/api/services", params={"includes[]": "company"})
        assert services.status_code == 200, services.text
        members = services.json()["hydra:member"]
        assert members
        assert {member["company"]["name"] for member in members} <= {
            "Acme Networks",
            "Acme Networks Benelux",
        }
        assert api.get("/api/invoices").status_code == 403  # not in its scopes
        assert api.post("/api/services/client_reference", json={}).status_code == 403

        page.get_by_role("button", name="I have copied it").click()
        expect(shown).to_have_count(0)
        row.get_by_role("button", name="Revoke").click()
        page.get_by_role("alertdialog").get_by_role("button", name="Revoke").click()
        expect(row).to_contain_text("Revoked")
        expect(row.get_by_role("button", name="Revoke")).to_have_count(0)
        assert api.get("/api/services").status_code == 401

    page.reload()
    expect(page.get_by_test_id("token-row").filter(has_text="NOC dashboard")).to_contain_text(
        "Revoked"
    )
    expect(page.get_by_test_id("new-token")).to_have_count(0)


def test_a_user_who_may_not_make_tokens_gets_neither_entry_nor_page(page: Page) -> None:
    log_in_as(page, BOB)
    open_user_menu(page)
    expect(page.get_by_role("menuitem", name="API access")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto(PATH)
    expect(page.get_by_role("alert").filter(has_text="Forbidden access")).to_be_visible()


def test_the_examples_and_the_reference_are_the_users_own(page: Page, portal_url: str) -> None:
    log_in_as(page, ALICE, PATH)
    base = page.get_by_test_id("api-base")
    expect(base).to_have_text(f"{portal_url}/provider")
    examples = page.get_by_test_id("curl-examples")
    expect(examples).to_contain_text('curl -H "Authorization: Bearer $PATCHBAY_TOKEN"')
    references = re.findall(r"search=([\w-]+)", examples.inner_text())
    assert references
    # Alice's services, as the portal's own list finds them for her.
    for reference in references:
        page.goto(f"/services?search={reference}")
        expect(page.get_by_test_id("services-count")).to_have_text("1 service found")

    page.goto(PATH)
    reference = page.get_by_test_id("api-reference")
    href = reference.get_attribute("href")
    assert href == f"{portal_url}/provider/customer-api"
    document = httpx.get(f"{portal_url}/provider/customer-api/openapi.json").json()
    assert "/api/services" in document["paths"]
    assert "/api/users" not in document["paths"]
    reference_page = page.context.new_page()
    reference_page.goto(href)
    expect(reference_page.get_by_text("/api/services/{service_id}", exact=True)).to_be_visible()
    reference_page.close()
