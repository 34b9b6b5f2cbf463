"""Steps shared by the browser tests."""

import re

from playwright.sync_api import Page, expect

DEMO_PASSWORD = "Patchbay-demo-2026"


def log_in(page: Page, email: str, password: str = DEMO_PASSWORD, path: str = "/login") -> None:
    page.goto(path)
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Login").click()


def log_in_as(page: Page, email: str) -> None:
    """Logs in and waits for the signed-in home page."""
    log_in(page, email)
    expect(
        page.get_by_role("button", name=re.compile("User menu|Menu utilisateur"))
    ).to_be_visible()
    expect(page).to_have_url(re.compile(r":\d+/$"))


def open_user_menu(page: Page) -> None:
    page.get_by_role("button", name=re.compile("User menu|Menu utilisateur")).click()
