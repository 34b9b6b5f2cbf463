"""Operations in the built portal (issue 17): health and readiness on the single port, metrics
of every worker, JSON logs with request ids — and, after a browser has logged in, failed a
login and asked for a reset link, not one secret in the portal's whole log."""

import json
import re
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, expect

from portal.session_store import COOKIE_NAME
from tests.e2e.helpers import DEMO_PASSWORD, log_in, log_in_as
from tests.e2e.mail import latest_mail_to, link_in

WRONG_PASSWORD = "Not-the-password-2026"
NEW_PASSWORD = "Bob-reset-password-2027"


def test_health_readiness_and_request_ids_on_the_portal_port(portal_url: str) -> None:
    health = httpx.get(portal_url + "/healthz")
    assert health.status_code == 200
    assert health.json()["status"] == "ok"
    ready = httpx.get(portal_url + "/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    assert {"database", "provider"} <= set(ready.json()["checks"])
    page = httpx.get(portal_url + "/login")
    assert re.fullmatch(r"[0-9a-f]{16}", page.headers["X-Request-ID"])
    assert page.headers["X-Served-By"] == health.json()["instance"]


def test_no_secret_reaches_the_log_of_a_browser_run(
    page: Page,
    context: BrowserContext,
    browser: Browser,
    portal_url: str,
    portal_data: Path,
    mail_dir: Path,
) -> None:
    log_in(page, "alice@acme-networks.test", WRONG_PASSWORD)
    expect(page.get_by_role("alert")).to_be_visible()
    log_in_as(page, "alice@acme-networks.test")
    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE_NAME)
    page.goto("/services")
    expect(page.get_by_role("heading", name="Services")).to_be_visible()

    signed_out = browser.new_context(base_url=portal_url, locale="en-GB")
    try:
        other = signed_out.new_page()
        since = time.time()
        other.goto("/forgot-password")
        other.locator("#forgot-email").fill("bob@acme-networks.test")
        other.get_by_role("button", name="Reset password").click()
        link = link_in(latest_mail_to(mail_dir, "bob@acme-networks.test", since))
        token = link.rsplit("token=", 1)[1]
        other.goto(link)
        expect(other.get_by_role("heading", name="Reset password")).to_be_visible()
        other.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
        other.get_by_label("Confirm password", exact=True).fill(NEW_PASSWORD)
        other.get_by_role("button", name="Reset password").click()
        expect(other).to_have_url(re.compile(r"passwordUpdated=1"))
    finally:
        signed_out.close()

    metrics = httpx.get(portal_url + "/metrics").text
    assert re.search(r'patchbay_logins_total\{outcome="success"\} [1-9]', metrics)
    assert re.search(r'patchbay_logins_total\{outcome="failure"\} [1-9]', metrics)
    assert "patchbay_websocket_clients" in metrics
    assert "patchbay_provider_client_call_duration_seconds_bucket" in metrics

    time.sleep(1)  # the workers' last lines reach the file
    log = (portal_data / "portal.log").read_text(errors="replace")
    for secret in (DEMO_PASSWORD, WRONG_PASSWORD, NEW_PASSWORD, cookie, token):
        assert secret not in log
    # Every event of the portal and the provider is one JSON object with its request id.
    entries = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    access = [e for e in entries if e["logger"] == "portal.provider.access"]
    assert any(e["route"] == "/login" and e["status"] == 401 for e in access)
    assert all(re.fullmatch(r"[0-9a-f]{16}", e["request_id"]) for e in access)
