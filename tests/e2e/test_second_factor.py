"""Two-step login (issue 18, item 10): a user sets up a TOTP second factor from their profile
in English or French, keeps the recovery codes shown once, then logs in with a code, a
recovery code and a remembered browser; an administrator resets a user's second factor."""

import re
import time
from typing import Any

import httpx
import pyotp
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DEMO_PASSWORD
from tests.e2e.helpers import expect_home, log_in_as, open_user_menu

TEXTS = {
    "en": {
        "e-mail": "E-mail",
        "password": "Password",
        "login": "Login",
        "profile": "My profile",
        "logout": "Logout",
        "two-step": "Two-step login",
        "set up": "Set up two-step login",
        "enter": "2. Enter the 6-digit code that the app shows:",
        "confirm": "Confirm",
        "saved": "I have saved them",
        "on": "On",
        "left": "Recovery codes left: 10",
        "code": "Code",
        "remember": "Remember this browser for 30 days",
        "verify": "Verify",
        "invalid": "Invalid code.",
    },
    "fr": {
        "e-mail": "E-mail",
        "password": "Mot de passe",
        "login": "Se connecter",
        "profile": "Mon profil",
        "logout": "Déconnexion",
        "two-step": "Validation en deux étapes",
        "set up": "Activer la validation en deux étapes",
        "enter": "2. Saisissez le code à 6 chiffres affiché par l'application :",
        "confirm": "Confirmer",
        "saved": "Je les ai enregistrés",
        "on": "Activée",
        "left": "Codes de secours restants : 10",
        "code": "Code",
        "remember": "Se souvenir de ce navigateur pendant 30 jours",
        "verify": "Valider",
        "invalid": "Code invalide.",
    },
}
LANGUAGES = {"en": ("en-GB", "bob@acme-networks.test"), "fr": ("fr-FR", "claire@globex.test")}


@pytest.fixture(params=sorted(LANGUAGES))
def language(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def context_options(language: str) -> dict[str, Any]:
    return {"locale": LANGUAGES[language][0]}


def _password_step(page: Page, email: str, text: dict[str, str]) -> None:
    page.goto("/login")
    page.get_by_label(text["e-mail"]).fill(email)
    page.get_by_label(text["password"], exact=True).fill(DEMO_PASSWORD)
    page.get_by_role("button", name=text["login"]).click()


def _signed_in(page: Page) -> None:
    expect_home(page)


def _log_out(page: Page, text: dict[str, str]) -> None:
    open_user_menu(page)
    page.get_by_role("menuitem", name=text["logout"]).click()
    expect(page).to_have_url(re.compile(r"/login/?$"))


def _enrol(page: Page, text: dict[str, str]) -> tuple[pyotp.TOTP, list[str], str]:
    """From the signed-in home page: the profile, the set-up, a first code, the codes kept.
    Answers the app, the recovery codes and the profile's path."""
    open_user_menu(page)
    page.get_by_role("menuitem", name=text["profile"]).click()
    expect(page).to_have_url(re.compile(r"/users/[0-9a-f-]{36}/?$"))
    profile = "/" + page.url.split("/", 3)[3]
    page.get_by_role("button", name=text["two-step"]).click()
    expect(page).to_have_url(re.compile(r"/account/second-factor/?$"))
    page.get_by_role("button", name=text["set up"]).click()
    expect(page.get_by_role("img")).to_have_attribute("src", re.compile("^data:image/svg"))
    secret = page.locator("main code").inner_text()
    totp = pyotp.TOTP(secret)
    page.get_by_label(text["enter"]).fill(totp.now())
    page.get_by_role("button", name=text["confirm"]).click()
    codes_box = page.get_by_test_id("recovery-codes")
    expect(codes_box.locator("code")).to_have_count(10)
    codes = codes_box.locator("code").all_inner_texts()
    page.get_by_role("button", name=text["saved"]).click()
    expect(page.get_by_text(text["left"])).to_be_visible()
    expect(page.get_by_text(text["on"], exact=True)).to_be_visible()
    return totp, codes, profile


def _next_code(totp: pyotp.TOTP) -> str:
    """The code of the next 30-second step: the one of the set-up may not serve twice, and the
    provider accepts one step of drift."""
    return totp.at(time.time() + 30)


def test_set_up_then_sign_in_with_a_code_and_a_remembered_browser(
    page: Page, language: str
) -> None:
    text = TEXTS[language]
    email = LANGUAGES[language][1]
    _password_step(page, email, text)
    _signed_in(page)
    totp, _codes, _profile = _enrol(page, text)
    _log_out(page, text)

    # The password alone opens nothing now; a wrong code says so; the app's code, with this
    # browser remembered, logs in, and the next login asks for the password only.
    _password_step(page, email, text)
    expect(page.get_by_role("heading", name=text["two-step"])).to_be_visible()
    page.get_by_label(text["code"], exact=True).fill("000000")
    page.get_by_role("button", name=text["verify"]).click()
    expect(page.get_by_role("alert")).to_contain_text(text["invalid"])
    page.get_by_label(text["code"], exact=True).fill(_next_code(totp))
    page.get_by_text(text["remember"]).click()
    page.get_by_role("button", name=text["verify"]).click()
    _signed_in(page)
    _log_out(page, text)
    _password_step(page, email, text)
    _signed_in(page)


def _enrolled_by_the_api(portal_url: str, email: str) -> tuple[list[str], str]:
    """A second factor set up through the provider's API: the recovery codes and the profile's
    path (the screens of the set-up are the test above's)."""
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        login = provider.post("/login", json={"username": email, "password": DEMO_PASSWORD})
        user_id = login.headers["Location"].rsplit("/", 1)[-1]
        secret = provider.post("/api/second_factor").json()["secret"]
        code = pyotp.TOTP(secret).now()
        confirmed = provider.post("/api/second_factor/confirm", json={"code": code})
        provider.post("/logout")
    return confirmed.json()["recoveryCodes"], f"/users/{user_id}"


@pytest.mark.parametrize("language", ["en"])
def test_a_recovery_code_serves_and_an_administrator_resets_a_lost_second_factor(
    page: Page, browser: Browser, portal_url: str, language: str
) -> None:
    text = TEXTS[language]
    email = "george.patel@globex.test"
    codes, profile = _enrolled_by_the_api(portal_url, email)
    # A recovery code logs in once, and the set-up page says how many are left (issue 52).
    _password_step(page, email, text)
    page.get_by_label(text["code"], exact=True).fill(codes[0])
    page.get_by_role("button", name=text["verify"]).click()
    expect(page).to_have_url(re.compile(r"/account/second-factor/?\?signedInWith=recoveryCode$"))
    expect(page.get_by_test_id("recovery-code-used")).to_contain_text("Recovery codes left: 9")
    _log_out(page, text)
    _password_step(page, email, text)
    page.get_by_label(text["code"], exact=True).fill(codes[0])
    page.get_by_role("button", name=text["verify"]).click()
    expect(page.get_by_role("alert")).to_contain_text(text["invalid"])
    page.get_by_role("button", name="Back to the password").click()

    admin = browser.new_context(base_url=portal_url)
    try:
        admin_page = admin.new_page()
        log_in_as(admin_page, "admin@patchbay.test", profile)
        admin_page.get_by_role("button", name="Reset two-step login").click()
        admin_page.get_by_role("alertdialog").get_by_role("button", name="Reset").click()
        expect(
            admin_page.get_by_text("The two-step login of George Patel has been reset.")
        ).to_be_visible()
    finally:
        admin.close()

    # The password alone signs George in again.
    _password_step(page, email, text)
    _signed_in(page)
