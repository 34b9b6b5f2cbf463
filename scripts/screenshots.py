"""Screenshots of the screens for docs/screenshots/, in both languages, both themes, on a
desktop and a phone: ``python scripts/screenshots.py http://localhost:PORT OUT_DIR [SCREEN…]``
against a running portal seeded with the demo data (no SCREEN: every one)."""

import re
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "Patchbay-demo-2026"
VIEWPORTS = {"desktop": (1440, 900), "phone": (390, 844)}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}


def _log_in(page: Page, email: str) -> None:
    page.goto("/login")
    page.locator("#login-email").fill(email)
    page.locator("#login-password").fill(PASSWORD)
    page.locator("form button[type=submit]").click()
    expect(
        page.get_by_role("button", name=re.compile("User menu|Menu utilisateur"))
    ).to_be_visible()
    # Shows once the home page is hydrated: a menu clicked before never opens (as
    # tests/e2e/helpers.py's expect_home says).
    expect(page.get_by_test_id("signed-in-since")).to_be_visible()


def home(page: Page) -> None:
    """The dashboard with its figures, the last tickets and the maintenances list."""
    _log_in(page, "alice@acme-networks.test")
    expect(page.get_by_test_id("tile-open-tickets")).to_be_visible()
    expect(page.get_by_test_id("dashboard-invoices")).to_be_visible()
    expect(page.get_by_test_id("dashboard-tickets").get_by_role("row").nth(1)).to_be_visible()
    expect(page.get_by_test_id("dashboard-maintenances").get_by_role("row").nth(1)).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def service_detail(page: Page) -> None:
    """A service of the list with its details, its maintenances and its invoices."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/services")
    # A card's link: the skip link of the page also starts with /services/.
    page.get_by_test_id("service-card").first.get_by_role("link").first.click()
    for table in ("^Maintenances$", "^(Invoices|Factures)$"):
        rows = page.get_by_role("table", name=re.compile(table)).get_by_role("row")
        expect(rows.nth(1)).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def login(page: Page) -> None:
    """The login page, its form ready (painted at once, enabled once the page is hydrated)."""
    page.goto("/login")
    expect(page.locator("#login-email")).to_be_enabled()


def service_import(page: Page) -> None:
    """The import dialog of the services list, a CSV file chosen."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/services")
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    page.get_by_test_id("import-button").click()
    dialog = page.get_by_role("dialog")
    csv = {
        "name": "references.csv",
        "mimeType": "text/csv",
        "buffer": b"reference;clientReferences\n",
    }
    dialog.locator("input[type=file]").set_input_files(files=[csv])
    expect(dialog.get_by_test_id("chosen-file")).to_be_visible()


def navigation(page: Page) -> None:
    """The navigation: the navbar on a desktop, the menu opened from the left on a phone."""
    _log_in(page, "alice@acme-networks.test")
    menu = page.get_by_role("button", name=re.compile("Open the menu|Ouvrir le menu"))
    if menu.is_visible():
        menu.click()
        expect(page.get_by_role("dialog")).to_be_visible()


def accessibility(page: Page) -> None:
    """The accessibility statement, from the footer of every page (issue 54)."""
    page.goto("/accessibility")
    expect(page.locator("h1")).to_be_visible()
    # Enabled once the page is hydrated.
    expect(page.locator(".language-select").first).to_be_enabled()


def forgot_password(page: Page) -> None:
    page.goto("/forgot-password")
    page.locator("#forgot-email").fill("alice@acme-networks.test")
    page.locator("#forgot-email").blur()


def reset_password(page: Page) -> None:
    page.goto("/reset-password?token=example")
    page.locator("#reset-password").fill("Patchbay-2026")
    page.locator("#reset-password-confirmation").fill("Patchbay-2O26")
    page.locator("#reset-password-confirmation").blur()


def services(page: Page) -> None:
    """The services list as cards, with its tiles and filters."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/services")
    expect(page.get_by_test_id("service-card").first).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def users(page: Page) -> None:
    """The users of a customer user manager's companies, with the create button and actions."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/users")
    expect(page.get_by_role("table")).to_contain_text("bob@acme-networks.test")
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def user_form(page: Page) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.goto("/users")
    page.locator("main button").filter(
        has_text=re.compile("Create user|Créer un utilisateur")
    ).click()
    dialog = page.get_by_role("dialog")
    dialog.locator("#user-form-firstname").fill("Dana")
    dialog.locator("#user-form-lastname").fill("Scully")
    dialog.locator("#user-form-email").fill("dana.scully@acme-networks")
    dialog.locator("#user-form-phoneNumber").fill("+33 1 23 45 67 89")
    dialog.locator("#user-form-phoneNumber").focus()
    dialog.get_by_role("checkbox").first.click()


def user_access(page: Page) -> None:
    """The user form's access section: a colleague limited to the services of one site (the
    choice made, not saved)."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/users?email=bob%40")
    expect(page.get_by_role("table")).to_contain_text("bob@acme-networks.test")
    page.get_by_role("button", name=re.compile("(Edit|Modifier) Bob Durand")).click()
    access = page.get_by_role("dialog").get_by_test_id("user-form-access")
    access.locator("button[role=radio][value=only]").click()
    access.locator("#user-form-access-search").fill("lyon gerland")
    expect(access.get_by_role("option").first).to_be_visible()
    access.locator("#user-form-access-add-all").click()
    expect(access.get_by_test_id("user-form-access-count")).to_have_text(re.compile(r"^\d+ "))
    access.locator("#user-form-access-search").fill("paris voltaire")
    expect(access.get_by_role("option").first).to_be_visible()
    access.scroll_into_view_if_needed()


def user_profile(page: Page) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.get_by_role("button", name=re.compile("User menu|Menu utilisateur")).click()
    page.get_by_role("menuitem").nth(0).click()
    expect(page).to_have_url(re.compile(r"/users/[0-9a-f-]{36}/?$"))
    expect(page.locator("main").get_by_text("alice@acme-networks.test")).to_be_visible()


def second_factor(page: Page) -> None:
    """The set-up of two-step login, at the QR code (an unconfirmed set-up changes nothing)."""
    _log_in(page, "bob@acme-networks.test")
    page.goto("/account/second-factor")
    set_up = re.compile("^(Set up two-step login|Activer la validation en deux étapes)$")
    page.get_by_role("button", name=set_up).click()
    expect(page.locator("main img")).to_have_attribute("src", re.compile("^data:image/svg"))


def passkeys(page: Page) -> None:
    """A passkey just added with Chromium's virtual authenticator: the list, and the recovery
    codes it brought (``forget_passkeys`` deletes it after the shot)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
    _log_in(page, "bob@acme-networks.test")
    page.goto("/account/second-factor")
    page.locator("#new-passkey-name").fill("MacBook")
    page.locator("#new-passkey-name").press("Enter")
    expect(page.get_by_test_id("recovery-codes").locator("code")).to_have_count(10)
    expect(page.get_by_test_id("passkey-row")).to_have_count(1)


def forget_passkeys(page: Page) -> None:
    """Deletes the passkey the shot added, so the next shot logs in with the password."""
    page.get_by_test_id("recovery-codes-card").get_by_role("button").last.click()
    row = page.get_by_test_id("passkey-row")
    row.get_by_role("button").last.click()
    page.get_by_role("alertdialog").get_by_role("button").last.click()
    expect(page.get_by_test_id("no-passkeys")).to_be_visible()


def companies(page: Page) -> None:
    """The companies with their login policy, Globex's second factor required."""
    _log_in(page, "admin@patchbay.test")
    page.goto("/companies")
    rows = page.get_by_test_id("company-row")
    expect(rows.first).to_be_visible()
    switch = rows.filter(has_text="Globex").get_by_role("switch")
    if switch.get_attribute("aria-checked") != "true":
        switch.click()
    expect(switch).to_be_checked()


def notifications(page: Page) -> None:
    """The Notifications page of a user manager: the preferences, then the extra notice
    addresses of Acme and Acme Benelux."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/account/notifications")
    expect(page.locator("#mail-time-zone")).to_be_visible()
    expect(page.get_by_test_id("notice-addresses")).to_have_count(2)


def notifications_addresses(page: Page) -> None:
    """The same page at Acme's extra notice addresses (one confirmed, one waiting) and the
    form that adds one."""
    notifications(page)
    expect(
        page.get_by_test_id("notice-addresses").first.get_by_test_id("notice-address")
    ).to_have_count(2)
    page.get_by_test_id("notice-addresses").first.locator("form").scroll_into_view_if_needed()


def impersonation(page: Page) -> None:
    _log_in(page, "admin@patchbay.test")
    page.goto("/users?email=alice%40acme-networks.test")
    page.get_by_role("button", name=re.compile("Alice Martin")).filter(
        has=page.locator("svg")
    ).first.click()
    expect(page.get_by_test_id("impersonation-banner")).to_be_visible()
    page.goto("/users")
    expect(page.get_by_role("table")).to_contain_text("alice@acme-networks.test")


def invoicing(page: Page) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.goto("/invoices")
    chart = page.get_by_test_id("invoices-chart")
    expect(chart.locator("g.xtick").first).to_be_visible(timeout=30_000)
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def tickets(page: Page) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.goto("/tickets")
    expect(page.get_by_test_id("ticket-card").first).to_be_visible()


def ticket_process(page: Page) -> None:
    tickets(page)
    page.get_by_role("tab").nth(1).click()
    expect(page.get_by_test_id("escalation-note")).to_be_visible()


def ticket_detail(page: Page) -> None:
    tickets(page)
    page.get_by_test_id("ticket-card").first.get_by_role("link").first.click()
    expect(page.get_by_test_id("ticket-description")).to_be_visible()


# A ticket opened in the portal and answered by the helpdesk, for the conversation's screenshots.
CONVERSATION = {
    "en": (
        "Packet loss towards Frankfurt",
        "Since **09:40** we lose about 2 % of packets towards AS3320.",
        "The loss is gone since your change, thank you. Traceroute attached.",
        "We moved the session to the *backup path* while the optic is replaced.\n\n"
        "- new optic: tomorrow 06:00\n- no impact expected",
    ),
    "fr": (
        "Perte de paquets vers Francfort",
        "Depuis **09:40** nous perdons environ 2 % des paquets vers l'AS3320.",
        "La perte a disparu depuis votre intervention, merci. Traceroute en pièce jointe.",
        "Nous avons basculé la session sur le *chemin de secours* le temps de remplacer "
        "l'optique.\n\n- nouvelle optique : demain 06:00\n- aucun impact attendu",
    ),
}


def _language(page: Page) -> str:
    return "fr" if page.evaluate("navigator.language").startswith("fr") else "en"


def new_ticket(page: Page) -> None:
    """The form opened from a service page, the service filled in, a subject typed."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/services")
    page.get_by_test_id("service-card").first.get_by_role("link").first.click()
    page.get_by_test_id("report-problem").click()
    expect(page.get_by_test_id("new-ticket-service-chosen")).to_be_visible()
    subject, description, _reply, _answer = CONVERSATION[_language(page)]
    page.locator("#new-ticket-subject").fill(subject)
    page.locator("#new-ticket-description").fill(description)


def _conversation_ticket(base_url: str, language: str) -> str:
    """The id of the ticket of the conversation in ``language``: opened by Alice, answered by
    the helpdesk through the integration API the first time, found by its subject after."""
    subject, description, reply, answer = CONVERSATION[language]
    with httpx.Client(
        base_url=f"{base_url}/provider", headers={"Accept-Language": language}
    ) as api:
        api.post("/login", json={"username": "alice@acme-networks.test", "password": PASSWORD})
        found = api.get("/api/tickets", params={"subject": subject}).json()["hydra:member"]
        if found:
            return found[0]["id"]
        body = {"subject": subject, "description": description, "type": "incident",
                "priority": "high", "company": _alice_company(api)}  # fmt: skip
        ticket = api.post("/api/tickets", json=body).json()
        message = api.post(f"/api/tickets/{ticket['id']}/messages", json={"body": reply}).json()
        api.post(
            f"/api/tickets/{ticket['id']}/attachments",
            files={"file": ("traceroute.txt", b"1  10.0.0.1  0.4 ms\n", "text/plain")},
            data={"message": message["id"]},
        )
    with httpx.Client(base_url=f"{base_url}/provider") as admin:
        admin.post("/login", json={"username": "admin@patchbay.test", "password": PASSWORD})
        scopes = {"name": f"Screenshots {language}", "scopes": ["ticket_replies"]}
        token = admin.post("/api/tokens", json=scopes).json()["token"]
        reply_body = [{"reference": f"SHOT-{language}", "ticket": f"P-{ticket['number']}",
                       "author": "Ana Silva", "body": answer}]  # fmt: skip
        admin.put(
            "/api/integration/ticket_replies",
            json=reply_body,
            headers={"Authorization": f"Bearer {token}"},
        ).raise_for_status()
    return ticket["id"]


def _alice_company(api: httpx.Client) -> str:
    me = api.get("/api/tickets", params={"itemsPerPage": 1}).json()["hydra:member"][0]
    return me["company"] if isinstance(me["company"], str) else me["company"]["@id"]


def ticket_conversation(page: Page) -> None:
    """A conversation: the customer's messages, the helpdesk's answer, a file, the reply box."""
    _log_in(page, "alice@acme-networks.test")
    ticket_id = _conversation_ticket(page.evaluate("location.origin"), _language(page))
    page.goto(f"/tickets/{ticket_id}")
    expect(page.get_by_test_id("ticket-message").last).to_have_attribute("data-side", "provider")
    expect(page.get_by_test_id("ticket-message").last).to_be_in_viewport()


def audit(page: Page) -> None:
    _log_in(page, "admin@patchbay.test")
    page.goto("/audit")
    expect(page.get_by_test_id("audit-count")).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def api_access(page: Page) -> None:
    """API access with a token just made: shown once, listed, and the examples below."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/account/api-access")
    page.locator("#token-name").fill("NOC dashboard")
    page.get_by_role("checkbox").nth(0).click()
    page.get_by_role("checkbox").nth(3).click()
    page.locator("form button[type=submit]").click()
    expect(page.get_by_test_id("new-token")).to_have_value(re.compile(r"^pbt_"))
    expect(page.get_by_test_id("curl-examples")).to_contain_text("curl")


def _sso_for_globex(base_url: str) -> str:
    """Globex's single sign-on, set as an administrator sets it (these screens never reach its
    identity provider); returns Globex's id."""
    with httpx.Client(base_url=f"{base_url}/provider") as admin:
        admin.post("/login", json={"username": "admin@patchbay.test", "password": PASSWORD})
        found = admin.get("/api/companies", params={"name": "Globex"}).json()["hydra:member"]
        globex = next(company["id"] for company in found if company["name"] == "Globex")
        settings = {
            "issuer": "https://login.globex.test/realms/globex",
            "clientId": "patchbay-portal",
            "clientSecret": "screenshots",
            "domains": ["globex.test"],
            "passwordAllowed": True,
            "createUsers": True,
            "defaultRoles": ["ROLE_ACCESS_INVOICES", "ROLE_ACCESS_MONITORING"],
        }
        admin.put(f"/api/companies/{globex}/sso", json=settings).raise_for_status()
    return globex


def sso_login(page: Page) -> None:
    """The login page once an e-mail of a covered domain is typed: continue with the company."""
    login(page)
    _sso_for_globex(page.evaluate("location.origin"))
    page.locator("#login-email").fill("claire@globex.test")
    page.locator("#login-email").press("Tab")
    expect(page.get_by_test_id("sso-continue")).to_be_visible()


def sso_failure(page: Page) -> None:
    """The login page back from a refused single sign-on (a user unknown to the portal)."""
    page.goto("/login?sso=sso_user_unknown")
    expect(page.get_by_test_id("sso-failure")).to_be_visible()
    expect(page.locator("#login-email")).to_be_enabled()


def sso_settings(page: Page) -> None:
    """An administrator's single sign-on settings of a company."""
    _log_in(page, "admin@patchbay.test")
    globex = _sso_for_globex(page.evaluate("location.origin"))
    page.goto(f"/admin/single-sign-on?company={globex}")
    expect(page.locator("#sso-issuer")).to_have_value(re.compile("globex"))


def webhooks(page: Page) -> None:
    """Webhooks with an endpoint just registered: its secret shown once, the endpoint listed."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/account/webhooks")
    rows = page.get_by_test_id("webhook-row")
    expect(page.get_by_test_id("no-webhooks").or_(rows.first)).to_be_visible()
    # The endpoint of the previous shot goes first: each shot shows one.
    while (left := rows.count()) > 0:
        rows.first.get_by_role("button").filter(has=page.locator("svg.lucide-trash-2")).click()
        page.get_by_role("alertdialog").get_by_role("button").last.click()
        expect(rows).to_have_count(left - 1)
    page.get_by_role("button").filter(has=page.locator("svg.lucide-plus")).click()
    dialog = page.get_by_role("dialog")
    # A public address written as such: checked, and no resolver asked.
    dialog.locator("#webhook-url").fill("https://185.199.108.153/hooks/patchbay")
    dialog.locator("#webhook-description").fill("NOC event bus")
    for index in (0, 1, 2, 4):
        dialog.get_by_role("checkbox").nth(index).click()
    dialog.locator("button[type=submit]").click()
    expect(page.get_by_test_id("new-secret")).to_have_value(re.compile(r"^whsec_"))
    expect(page.get_by_test_id("webhook-row")).to_be_visible()


def _live(page: Page, kind: str) -> Locator:
    """The first card of that kind of sensor that is up (it has samples to draw)."""
    cards = page.locator("[data-testid='sensor-card'][data-status='up']")
    return cards.filter(has_text=re.compile(rf"^{kind} ")).first


def monitoring(page: Page) -> None:
    _log_in(page, "bob@acme-networks.test")
    page.goto("/monitoring")
    expect(page.get_by_test_id("sensor-card").first).to_be_visible()


def sensor_chart(page: Page) -> None:
    monitoring(page)
    _live(page, "Traffic").click()
    dialog = page.get_by_test_id("chart-dialog")
    dialog.get_by_role("radio").nth(1).click()
    expect(dialog.get_by_test_id("sensor-chart")).to_have_attribute("data-span", "last_48_hours")
    expect(dialog.get_by_test_id("sensor-chart").locator("svg")).to_be_visible()


def sensor_chart_readout(page: Page) -> None:
    """The chart focused by keyboard, its line and readout on the last moment (issue 54)."""
    sensor_chart(page)
    dialog = page.get_by_test_id("chart-dialog")
    dialog.get_by_test_id("chart-reader").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    expect(dialog.locator(".chart-reader-line")).to_be_visible()


def sensor_chart_table(page: Page) -> None:
    """The same chart shown as a table."""
    sensor_chart(page)
    dialog = page.get_by_test_id("chart-dialog")
    dialog.get_by_test_id("chart-table-toggle").click()
    expect(dialog.get_by_role("table")).to_be_visible()


def invoicing_chart_readout(page: Page) -> None:
    """The invoicing chart focused by keyboard, its readout on the last month but two."""
    invoicing(page)
    chart = page.get_by_test_id("invoices-chart")
    chart.get_by_test_id("chart-reader").focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(chart.locator(".chart-reader-line")).to_be_visible()
    chart.scroll_into_view_if_needed()


def invoicing_chart_table(page: Page) -> None:
    invoicing(page)
    chart = page.get_by_test_id("invoices-chart")
    chart.get_by_test_id("chart-table-toggle").click()
    expect(chart.get_by_role("table")).to_be_visible()
    chart.scroll_into_view_if_needed()


def contacts(page: Page) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.goto("/contacts")
    expect(
        page.get_by_test_id("further-contacts").get_by_test_id("contact-card").first
    ).to_be_visible()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)
    if (page.viewport_size or {"width": 0})["width"] < 600:
        page.get_by_test_id("contacts-companies").scroll_into_view_if_needed()
        page.mouse.wheel(0, 260)


def _maintenances(page: Page, mode: str) -> None:
    _log_in(page, "alice@acme-networks.test")
    page.goto("/maintenances")
    toggle = page.get_by_test_id("maintenances-view").get_by_role("radio")
    toggle.nth(1 if mode == "calendar" else 0).click()
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def maintenances(page: Page) -> None:
    """The calendar of the current month (the list of the month on a phone)."""
    _maintenances(page, "calendar")
    expect(page.locator(".fc-event").first).to_be_visible()


def maintenances_list(page: Page) -> None:
    """The list, and the calendar feed card with a link just made."""
    _maintenances(page, "list")
    card = page.get_by_test_id("calendar-feed")
    card.get_by_role("button").first.click()
    expect(card.get_by_test_id("feed-url")).to_be_visible()
    card.scroll_into_view_if_needed()


def maintenance_dialog(page: Page) -> None:
    _maintenances(page, "list")
    table = page.get_by_role("table").first
    table.get_by_role("button", name=re.compile(r"^MNT-")).first.click()
    expect(page.get_by_role("dialog").get_by_role("link").first).to_be_visible()


SCREENS: dict[str, Callable[[Page], None]] = {
    "login": login,
    "home": home,
    "service-detail": service_detail,
    "navigation": navigation,
    "services": services,
    "service-import": service_import,
    "forgot-password": forgot_password,
    "reset-password": reset_password,
    "users": users,
    "user-form": user_form,
    "user-access": user_access,
    "user-profile": user_profile,
    "second-factor": second_factor,
    "passkeys": passkeys,
    "companies": companies,
    "notifications": notifications,
    "notifications-addresses": notifications_addresses,
    "impersonation": impersonation,
    "invoicing": invoicing,
    "tickets": tickets,
    "ticket-process": ticket_process,
    "ticket-detail": ticket_detail,
    "new-ticket": new_ticket,
    "ticket-conversation": ticket_conversation,
    "audit": audit,
    "api-access": api_access,
    "sso-login": sso_login,
    "sso-failure": sso_failure,
    "sso-settings": sso_settings,
    "webhooks": webhooks,
    "monitoring": monitoring,
    "sensor-chart": sensor_chart,
    "sensor-chart-readout": sensor_chart_readout,
    "sensor-chart-table": sensor_chart_table,
    "invoicing-chart-readout": invoicing_chart_readout,
    "invoicing-chart-table": invoicing_chart_table,
    "contacts": contacts,
    "maintenances": maintenances,
    "maintenances-list": maintenances_list,
    "maintenance-dialog": maintenance_dialog,
    "accessibility": accessibility,
}


# What a screen's preparation changed and the next shot must not find.
CLEANUPS: dict[str, Callable[[Page], None]] = {"passkeys": forget_passkeys}


def shoot(browser: Browser, base_url: str, out: Path, only: set[str]) -> None:
    for name, prepare in SCREENS.items():
        if only and name not in only:
            continue
        for language, locale in LOCALES.items():
            for theme in ("light", "dark"):
                for device, (width, height) in VIEWPORTS.items():
                    context = browser.new_context(
                        base_url=base_url,
                        locale=locale,
                        color_scheme=theme,
                        viewport={"width": width, "height": height},
                        device_scale_factor=1 if device == "desktop" else 2,
                        is_mobile=device == "phone",
                        has_touch=device == "phone",
                    )
                    context.set_default_timeout(20_000)
                    page = context.new_page()
                    prepare(page)
                    page.wait_for_timeout(600)  # let transitions and toasts settle
                    path = out / f"{name}-{language}-{theme}-{device}.png"
                    page.screenshot(path=str(path))
                    print(path)
                    if name in CLEANUPS:
                        CLEANUPS[name](page)
                    context.close()


def main() -> None:
    base_url, out = sys.argv[1], Path(sys.argv[2])
    # Playwright's 5 s for an assertion is too short for a login on a busy machine.
    expect.set_options(timeout=30_000)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        shoot(browser, base_url, out, set(sys.argv[3:]))
        browser.close()


if __name__ == "__main__":
    main()
