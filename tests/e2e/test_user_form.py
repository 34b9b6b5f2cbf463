"""The user form (spec 2, 5, 6 and 8): a customer user manager creates, edits and deletes a user
of their company; an admin creates a user who confirms the account from the e-mail."""

import re
import time
import uuid
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.helpers import log_in, log_in_as
from tests.e2e.mail import latest_mail_to, link_in


def _unique(prefix: str, domain: str) -> str:
    return f"{prefix}.{uuid.uuid4().hex[:8]}@{domain}"


def _open_create(page: Page) -> Locator:
    page.get_by_role("button", name="Create user").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Create user")).to_be_visible()
    return dialog


def _fill_identity(dialog: Locator, first: str, last: str, email: str) -> None:
    dialog.get_by_label("First name").fill(first)
    dialog.get_by_label("Last name").fill(last)
    dialog.get_by_label("E-mail").fill(email)


def _show_only(page: Page, email: str) -> Locator:
    page.locator("#users-filter-email").fill(email)
    table = page.get_by_role("table", name="Users")
    expect(page).to_have_url(re.compile("email="))
    return table


def test_a_customer_user_manager_creates_edits_and_deletes_a_user(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test", "/users")
    dialog = _open_create(page)
    expect(dialog.get_by_text("An e-mail will be sent to this user")).to_be_visible()
    save = dialog.get_by_role("button", name="Save")
    expect(save).to_be_disabled()

    # Validation on blur (spec 5).
    dialog.get_by_label("First name").focus()
    dialog.get_by_label("First name").blur()
    expect(dialog.get_by_text("This value should not be blank.")).to_be_visible()
    dialog.get_by_label("E-mail").fill("dana@")
    dialog.get_by_label("E-mail").blur()
    expect(dialog.get_by_text("Invalid email")).to_be_visible()

    # The manager's own company is chosen; LDAP is for admins only; staff roles are not offered.
    expect(dialog.get_by_text("Acme Networks", exact=True)).to_be_visible()
    expect(dialog.get_by_text("LDAP account")).to_have_count(0)
    expect(dialog.get_by_role("checkbox", name="Administrator")).to_have_count(0)

    email = _unique("dana", "acme-networks.test")
    _fill_identity(dialog, "Dana", "Scully", email)
    dialog.get_by_label("Phone number").fill("+33 1 23 45 67 89")
    dialog.get_by_label("Password", exact=True).fill("Acme-dana-2026")
    dialog.get_by_label("Confirm password", exact=True).fill("Acme-dana-2026x")
    dialog.get_by_label("Confirm password", exact=True).blur()
    expect(dialog.get_by_text("The password confirmation does not match.")).to_be_visible()
    expect(save).to_be_disabled()
    dialog.get_by_label("Confirm password", exact=True).fill("Acme-dana-2026")
    dialog.get_by_role("checkbox", name="Invoice access").click()
    save.click()

    expect(page.get_by_text("User Dana Scully has been created.")).to_be_visible()
    expect(dialog).to_be_hidden()
    table = _show_only(page, email)
    expect(table).to_contain_text(email)
    expect(table).to_contain_text("Invoice access")

    page.get_by_role("button", name="Edit Dana Scully").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Update user")).to_be_visible()
    expect(dialog.get_by_label("E-mail")).to_have_value(email)
    # Another user's password is theirs to set (spec 6).
    expect(dialog.get_by_label("Password", exact=True)).to_have_count(0)
    dialog.get_by_label("Last name").fill("Scully-Mulder")
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_text("User Dana Scully-Mulder has been updated.")).to_be_visible()
    expect(table).to_contain_text("Dana Scully-Mulder")

    page.get_by_role("button", name="Delete Dana Scully-Mulder").click()
    confirm = page.get_by_role("alertdialog")
    expect(confirm.get_by_role("heading", name="Delete user")).to_be_visible()
    confirm.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("User Dana Scully-Mulder has been deleted.")).to_be_visible()
    expect(table).not_to_contain_text(email)


def test_violations_of_the_provider_go_under_their_field(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test", "/users")
    dialog = _open_create(page)
    _fill_identity(dialog, "Bob", "Again", "bob@acme-networks.test")
    dialog.get_by_label("Password", exact=True).fill("Acme-bob-2026x")
    dialog.get_by_label("Confirm password", exact=True).fill("Acme-bob-2026x")
    dialog.get_by_role("button", name="Save").click()
    expect(
        dialog.get_by_role("alert").filter(has_text="Another user already has this e-mail.")
    ).to_be_visible()
    expect(dialog).to_be_visible()
    # Changing the field clears the provider's message about it.
    dialog.get_by_label("E-mail").fill("bob.again@acme-networks.test")
    expect(dialog.get_by_text("Another user already has this e-mail.")).to_have_count(0)
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()


def test_the_current_user_cannot_delete_themself_from_the_list(page: Page) -> None:
    log_in_as(page, "alice@acme-networks.test", "/users")
    _show_only(page, "alice@acme-networks.test")
    expect(page.get_by_role("button", name="Delete Alice Martin")).to_be_disabled()
    expect(page.get_by_role("button", name="Edit Alice Martin")).to_be_enabled()


def test_an_admin_creates_a_user_who_confirms_the_account(page: Page, mail_dir: Path) -> None:
    log_in_as(page, "admin@patchbay.test", "/users")
    dialog = _open_create(page)
    expect(dialog.get_by_text("LDAP account")).to_be_visible()
    email = _unique("eve", "globex.test")
    _fill_identity(dialog, "Eve", "Newcomer", email)
    dialog.get_by_label("Password", exact=True).fill("Globex-eve-2026")
    dialog.get_by_label("Confirm password", exact=True).fill("Globex-eve-2026")

    # An admin role for an external e-mail is refused under Roles, with a warning.
    dialog.get_by_role("checkbox", name="Administrator").click()
    expect(dialog.get_by_text("Warning: an administrator role gives full access")).to_be_visible()
    expect(
        dialog.get_by_text("Unable to assign an Administrator role to an external user")
    ).to_be_visible()
    expect(dialog.get_by_role("button", name="Save")).to_be_disabled()
    dialog.get_by_role("checkbox", name="Administrator").click()
    # Issue 47, item 19: every staff role, read-only staff too, with a message of its own.
    dialog.get_by_role("checkbox", name="Read-only staff").click()
    expect(dialog.get_by_text("Unable to assign a staff role to an external user")).to_be_visible()
    expect(dialog.get_by_role("button", name="Save")).to_be_disabled()
    dialog.get_by_role("checkbox", name="Read-only staff").click()
    dialog.get_by_role("checkbox", name="User manager", exact=True).click()

    # Company search: 2 characters at least.
    search = dialog.get_by_label("Company", exact=True)
    search.fill("G")
    expect(dialog.get_by_role("option")).to_have_count(0)
    search.fill("Globex")
    dialog.get_by_role("option", name="Globex", exact=True).click()
    expect(dialog.get_by_text("Globex", exact=True)).to_be_visible()

    since = time.time()
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_text("User Eve Newcomer has been created.")).to_be_visible()

    message = latest_mail_to(mail_dir, email, since)
    link = link_in(message)
    assert "/confirm-account?token=" in link
    page.get_by_role("button", name=re.compile("User menu")).click()
    page.get_by_role("menuitem", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/login"))

    page.goto(link)
    expect(page.get_by_role("heading", name="Confirm my account")).to_be_visible()
    page.get_by_label("Password", exact=True).fill("Eve-chosen-2026")
    page.get_by_label("Confirm password", exact=True).fill("Eve-chosen-2026")
    page.get_by_role("button", name="Confirm my account").click()
    expect(page).to_have_url(re.compile(r"/login/?\?accountConfirmed=1$"))
    expect(page.get_by_text("Account has been created. You can login now.")).to_be_visible()
    log_in(page, email, "Eve-chosen-2026", path=page.url)
    # A new user accepts the terms first.
    expect(page).to_have_url(re.compile(r"/terms/?$"))


def test_the_user_dialog_in_french(browser: Browser, portal_url: str) -> None:
    context = browser.new_context(base_url=portal_url, locale="fr-FR")
    try:
        page = context.new_page()
        log_in_as_fr(page, "alice@acme-networks.test")
        page.goto("/users")
        page.get_by_role("button", name="Créer un utilisateur").click()
        dialog = page.get_by_role("dialog")
        expect(dialog.get_by_role("heading", name="Créer un utilisateur")).to_be_visible()
        expect(dialog.get_by_text("Un e-mail sera envoyé à cet utilisateur")).to_be_visible()
        for label in ("Prénom", "Nom", "Numéro de téléphone"):
            expect(dialog.get_by_label(label, exact=True)).to_be_visible()
        dialog.get_by_label("Prénom", exact=True).focus()
        dialog.get_by_label("Prénom", exact=True).blur()
        expect(dialog.get_by_text("Cette valeur ne doit pas être vide.")).to_be_visible()
        expect(dialog.get_by_role("checkbox", name="Accès aux factures")).to_be_visible()
        expect(dialog.get_by_role("button", name="Enregistrer")).to_be_disabled()
        dialog.get_by_role("button", name="Fermer").click()
        expect(dialog).to_be_hidden()
    finally:
        context.close()


def log_in_as_fr(page: Page, email: str) -> None:
    page.goto("/login")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Mot de passe", exact=True).fill("Patchbay-demo-2026")
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("button", name="Menu utilisateur")).to_be_visible()
