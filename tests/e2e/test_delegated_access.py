"""Delegated access (issue 53): a user manager limits a colleague to the services of one site
from the user form; logged in, the colleague sees only those services, the tickets and
maintenances about them, their sensors and counters."""

import re

from playwright.sync_api import Page, expect
from sqlmodel import col, select

from portal.provider.platform.models import (
    Maintenance,
    MaintenanceService,
    Sensor,
    Service,
    Ticket,
    TicketStatus,
    User,
    UserServiceGrant,
)
from tests.e2e.helpers import log_in_as, provider_database

ALICE = "alice@acme-networks.test"
BOB = "bob@acme-networks.test"
SITE = "lyon gerland"


def _limit_bob(page: Page) -> None:
    log_in_as(page, ALICE, "/users?email=bob%40")
    table = page.get_by_role("table", name="Users")
    expect(table).to_contain_text(BOB)
    expect(table.get_by_test_id("user-limited")).to_have_count(0)
    # A limit is saved against a user who exists: the form of a new user has no access section.
    page.get_by_role("button", name="Create user").click()
    creating = page.get_by_role("dialog")
    expect(creating.get_by_label("E-mail")).to_be_visible()
    expect(creating.get_by_test_id("user-form-access")).to_have_count(0)
    creating.get_by_role("button", name="Close").click()
    expect(creating).to_have_count(0)
    page.get_by_role("button", name="Edit Bob Durand").click()
    dialog = page.get_by_role("dialog")
    access = dialog.get_by_test_id("user-form-access")
    expect(access.get_by_role("radio", name="All services")).to_be_checked()
    access.get_by_role("radio", name="Only these services").click()
    # Limited to nothing yet: Save waits for a choice.
    expect(dialog.get_by_role("button", name="Save")).to_be_disabled()
    access.get_by_label("Search services").fill(SITE)
    expect(access.get_by_role("option").first).to_be_visible()
    access.get_by_role("button", name="Add every service found").click()
    expect(access.get_by_test_id("user-form-access-count")).to_have_text(
        re.compile(r"^\d+ services chosen$")
    )
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_text("User Bob Durand has been updated.")).to_be_visible()
    expect(table.get_by_test_id("user-limited")).to_have_count(1)


def test_a_limited_colleague_sees_only_the_services_of_their_site(
    page: Page, portal_settings: dict[str, str]
) -> None:
    _limit_bob(page)
    with provider_database(portal_settings) as db:
        bob = db.exec(select(User).where(User.email == BOB)).one()
        granted = set(
            db.exec(select(UserServiceGrant.service_id).where(UserServiceGrant.user_id == bob.id))
        )
        services = db.exec(select(Service).where(col(Service.id).in_(granted))).all()
        references = {service.reference for service in services}
        every = db.exec(select(Service.id).where(Service.company_id == bob.company_id)).all()
        tickets = [
            ticket
            for ticket in db.exec(select(Ticket).where(Ticket.company_id == bob.company_id))
            if ticket.service_reference in references or ticket.requester_email == BOB
        ]
        maintenances = set(
            db.exec(
                select(Maintenance.reference)
                .join(MaintenanceService, col(MaintenanceService.maintenance_id) == Maintenance.id)
                .where(col(MaintenanceService.service_id).in_(granted))
            )
        )
        sensors = db.exec(select(Sensor.id).where(col(Sensor.service_id).in_(granted))).all()
    assert 0 < len(granted) < len(every)
    assert tickets
    assert sensors
    active = sum(1 for service in services if service.status == "active")
    open_tickets = sum(1 for ticket in tickets if ticket.status != TicketStatus.CLOSED)

    page.context.clear_cookies()
    log_in_as(page, BOB)
    expect(page.get_by_test_id("tile-active-services")).to_have_text(str(active))
    expect(page.get_by_test_id("tile-open-tickets")).to_have_text(str(open_tickets))
    rows = page.get_by_test_id("dashboard-maintenances").get_by_role("row")
    expect(rows.nth(1)).to_be_visible()
    for row in rows.all()[1:]:
        found = re.search(r"MNT-\d{4}-\d{4}", row.inner_text())
        assert found, row.inner_text()
        assert found.group() in maintenances, found.group()

    page.goto("/services")
    expect(page.get_by_test_id("services-count")).to_have_text(f"{len(granted)} services found")
    page.goto("/tickets")
    expect(page.get_by_test_id("tickets-count")).to_have_text(f"{len(tickets)} tickets found")
    page.goto("/monitoring")
    expect(page.get_by_test_id("sensor-card")).to_have_count(len(sensors))
