"""Single sign-on through the company's identity provider (issue 52): the login page offers
"Continue with your company" once the e-mail's domain is covered, the browser goes to a real
OpenID Connect provider on the loopback address (tests/sso_idp.py), logs in there and comes
back logged in to the portal; a refusal comes back to the login page said in the user's
language; the login is in the audit log with the issuer."""

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import col, select

from portal import routes
from portal.provider.platform.models import AuditLog, Company
from tests.e2e.conftest import DEMO_PASSWORD
from tests.e2e.helpers import expect_home, provider_database
from tests.sso_idp import IdentityProvider

EMAIL = "alice@acme-networks.test"


def _set_acme(portal_url: str, portal_settings: dict[str, str], **settings: object) -> None:
    """Acme Networks' single sign-on, set by the administrator over the API."""
    with provider_database(portal_settings) as db:
        acme = db.exec(select(Company.id).where(Company.name == "Acme Networks")).one()
    with httpx.Client(base_url=f"{portal_url}/provider") as admin:
        body = {"username": "admin@patchbay.test", "password": DEMO_PASSWORD}
        admin.post("/login", json=body).raise_for_status()
        admin.put(f"/api/companies/{acme}/sso", json=settings).raise_for_status()


@pytest.fixture(scope="module")
def idp(portal_url: str, portal_settings: dict[str, str]) -> Iterator[IdentityProvider]:
    """A running identity provider, registered as Acme Networks' by the administrator."""
    provider = IdentityProvider()
    provider.start()
    try:
        callback = portal_settings["PORTAL_PUBLIC_URL"] + routes.SSO_CALLBACK_PATH
        client_id, secret = provider.register(callback)
        provider.settings = {
            "issuer": provider.issuer,
            "clientId": client_id,
            "clientSecret": secret,
            "domains": ["acme-networks.test"],
        }
        _set_acme(portal_url, portal_settings, **provider.settings, passwordAllowed=True)
        yield provider
    finally:
        provider.stop()


def _continue_with_the_company(page: Page, email: str) -> None:
    page.goto("/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("E-mail").press("Tab")
    page.get_by_role("button", name="Continue with your company").click()


def test_a_user_signs_in_through_the_identity_provider(
    page: Page, idp: IdentityProvider, portal_settings: dict[str, str]
) -> None:
    idp.set_user("alice-at-acme", email=EMAIL, email_verified=True)
    _continue_with_the_company(page, EMAIL)
    # The identity provider's own page, on its own origin.
    expect(page).to_have_url(re.compile(re.escape(idp.issuer) + "/oauth2/authorize"))
    page.locator("input[name=sub]").fill("alice-at-acme")
    page.get_by_role("button", name="Authorize").click()
    expect_home(page)
    with provider_database(portal_settings) as db:
        entry = db.exec(
            select(AuditLog).where(AuditLog.action == "login").order_by(col(AuditLog.at).desc())
        ).first()
    assert entry is not None
    assert entry.detail["method"] == "sso"
    assert entry.detail["issuer"] == idp.issuer


def test_a_domain_not_covered_offers_no_single_sign_on(page: Page, idp: IdentityProvider) -> None:
    page.goto("/login")
    page.get_by_label("E-mail").fill("claire@globex.test")
    page.get_by_label("E-mail").press("Tab")
    expect(page.get_by_label("Password")).to_be_focused()
    expect(page.get_by_role("button", name="Continue with your company")).to_have_count(0)


@pytest.mark.parametrize(
    ("context_options", "text"),
    [
        ({"locale": "en-GB"}, "Your identity provider has not verified your e-mail address."),
        (
            {"locale": "fr-FR"},
            "Votre fournisseur d'identité n'a pas vérifié votre adresse e-mail.",
        ),
    ],
)
def test_an_unverified_email_comes_back_to_the_login_page(
    page: Page, idp: IdentityProvider, text: str
) -> None:
    idp.set_user("bob-unverified", email="bob@acme-networks.test", email_verified=False)
    page.goto("/login")
    page.get_by_label("E-mail").fill("bob@acme-networks.test")
    page.get_by_label("E-mail").press("Tab")
    page.get_by_role("button", name=re.compile("Continue with your company|Continuer avec")).click()
    page.locator("input[name=sub]").fill("bob-unverified")
    page.get_by_role("button", name="Authorize").click()
    expect(page).to_have_url(re.compile(r"/login/?\?sso=sso_unverified$"))
    expect(page.get_by_test_id("sso-failure")).to_have_text(text)


def test_a_company_that_allows_only_its_single_sign_on_refuses_the_password(
    page: Page, idp: IdentityProvider, portal_url: str, portal_settings: dict[str, str]
) -> None:
    _set_acme(portal_url, portal_settings, **idp.settings, passwordAllowed=False)
    try:
        page.goto("/login")
        page.get_by_label("E-mail").fill("bob@acme-networks.test")
        page.get_by_label("E-mail").press("Tab")
        expect(page.get_by_text("through its identity provider only")).to_be_visible()
        page.get_by_label("Password").fill(DEMO_PASSWORD)
        page.get_by_role("button", name="Login").click()
        expect(page.get_by_role("alert")).to_contain_text(
            "Your company logs in through its identity provider"
        )
        expect(page).to_have_url(re.compile(r"/login/?$"))
    finally:
        _set_acme(portal_url, portal_settings, **idp.settings, passwordAllowed=True)
