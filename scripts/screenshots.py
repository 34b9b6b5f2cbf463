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
    page.locator("a[href^='/services/']").first.click()
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
    """The set-up of two-step sign-in, at the QR code (an unconfirmed set-up changes nothing)."""
    _log_in(page, "bob@acme-networks.test")
    page.goto("/account/second-factor")
    page.locator("main button").filter(has=page.locator("svg")).first.click()
    expect(page.locator("main img")).to_have_attribute("src", re.compile("^data:image/svg"))


def notifications(page: Page) -> None:
    """The Notifications page of a user manager: the preferences, then the extra notice
    addresses of Acme and Acme Benelux."""
    _log_in(page, "alice@acme-networks.test")
    page.goto("/account/notifications")
    expect(page.locator("#mail-time-zone")).to_be_visible()
    expect(page.get_by_test_id("notice-addresses")).to_have_count(2)


def notifications_addresses(page: Page) -> None:
    """The same page at Acme's extra notice addresses (one confirmed, one waiting when the
    demo has them) and the form that adds one."""
    notifications(page)
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
    "monitoring": monitoring,
    "sensor-chart": sensor_chart,
    "contacts": contacts,
    "maintenances": maintenances,
    "maintenances-list": maintenances_list,
    "maintenance-dialog": maintenance_dialog,
}


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
                    context.close()


def main() -> None:
    base_url, out = sys.argv[1], Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        shoot(browser, base_url, out, set(sys.argv[3:]))
        browser.close()


if __name__ == "__main__":
    main()
