"""The dashboard's counters (spec 2 and 3: Dashboard; 7: ``GET /api/users/{id}/dashboard``)
against values counted by hand on a fixed set of services, tickets and invoices: the day
boundary for overdue, a credit note, a user of two companies, a user without invoice access,
and another user's dashboard, which is not found."""

import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import httpx
import pytest
from sqlalchemy import event
from sqlmodel import Session

from portal.provider.billing.routes import invoice_summary
from portal.provider.platform.models import (
    Invoice,
    InvoiceStatus,
    InvoiceType,
    Service,
    ServiceStatus,
    ServiceType,
    Ticket,
    TicketPriority,
    TicketStatus,
)
from tests.provider.conftest import SignIn, World

TODAY = date(2026, 6, 15)
ACTIVE, BUILDING, ENDING = (
    ServiceStatus.ACTIVE,
    ServiceStatus.UNDER_CONSTRUCTION,
    ServiceStatus.UNDER_TERMINATION,
)
SERVICES = {
    "acme": (ACTIVE, ACTIVE, ACTIVE, BUILDING, ENDING, ServiceStatus.TERMINATED),
    "benelux": (ACTIVE, BUILDING, BUILDING),
    "globex": (ACTIVE, ACTIVE, ACTIVE, ACTIVE),
}
TICKETS = {
    "acme": (TicketStatus.ACTIVE, TicketStatus.OPEN, TicketStatus.CLOSED, TicketStatus.ON_HOLD),
    "benelux": (TicketStatus.ACTIVE, TicketStatus.CLOSED, TicketStatus.CLOSED),
    "globex": (TicketStatus.ACTIVE,) * 5,
}
INV, CRED = InvoiceType.INVOICE, InvoiceType.CREDIT
# (company, type, due, with tax, paid)
INVOICES = (
    ("acme", INV, date(2026, 6, 15), "100.00", "0"),  # due today: not overdue
    ("acme", INV, date(2026, 6, 14), "250.50", "50.50"),  # due yesterday: 200.00 overdue
    ("acme", INV, date(2026, 5, 1), "70.00", "70.00"),  # paid
    ("acme", CRED, date(2026, 6, 1), "-30.00", "0"),  # in the balance only
    ("benelux", INV, date(2026, 6, 1), "40.25", "0"),
    ("globex", INV, date(2026, 1, 1), "9999.00", "0"),
)


@pytest.fixture(scope="module", autouse=True)
def data(world: World) -> None:
    with Session(world.engine) as session:
        kind = ServiceType(key="ip_transit", label_en="IP transit", label_fr="Transit IP")
        session.add(kind)
        number = 0
        for company, statuses in SERVICES.items():
            for status in statuses:
                number += 1
                session.add(
                    Service(
                        reference=f"PB-{number}",
                        company_id=world.companies[company],
                        status=status,
                        type=kind,
                    )
                )
        for company, ticket_statuses in TICKETS.items():
            for status in ticket_statuses:
                number += 1
                session.add(
                    Ticket(
                        number=number,
                        company_id=world.companies[company],
                        name=f"INC{number}",
                        date_created=datetime(2026, 6, 1, tzinfo=UTC) + timedelta(hours=number),
                        subject=f"Ticket {number}",
                        status=status,
                        priority=TicketPriority.LOW,
                    )
                )
        for company, kind_of, due, with_tax, paid in INVOICES:
            number += 1
            is_paid = Decimal(paid) == Decimal(with_tax)
            session.add(
                Invoice(
                    reference=f"INV-{number}",
                    company_id=world.companies[company],
                    type=kind_of,
                    date_created=due - timedelta(days=30),
                    date_invoice=due - timedelta(days=30),
                    date_due=due,
                    amount=Decimal(with_tax),
                    amount_with_tax=Decimal(with_tax),
                    paid=Decimal(paid),
                    is_paid=is_paid,
                    status=InvoiceStatus.PAID if is_paid else InvoiceStatus.UNPAID,
                )
            )
        session.commit()


@pytest.fixture(autouse=True)
def today(monkeypatch: pytest.MonkeyPatch) -> date:
    monkeypatch.setattr(invoice_summary, "business_today", lambda: TODAY)
    return TODAY


def _dashboard(world: World, key: str) -> str:
    return f"/api/users/{world.users[key]}/dashboard"


async def test_the_dashboard_needs_a_session(client: httpx.AsyncClient, world: World) -> None:
    assert (await client.get(_dashboard(world, "alice"))).status_code == 401


async def test_a_user_of_two_companies_counts_both(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    response = await client.get(_dashboard(world, "alice"))
    assert response.status_code == 200, response.text
    assert response.json() == {
        "@type": "Dashboard",
        "nbActiveServices": 4,
        "nbUnderConstructionServices": 3,
        "nbOpenTickets": 4,  # every status but closed: active, open, on hold, and Benelux's
        "nbActiveTickets": 2,
        "nbClosedTickets": 3,
        "currency": "EUR",
        "date": "2026-06-15",
        # 100.00 + 200.00 + 40.25 left on invoices, less the 30.00 credit note.
        "balance": "310.25",
        "amountDue": "340.25",
        # All but the 100.00 due today.
        "amountOverdue": "240.25",
        "nbUnpaidInvoices": 3,
    }


async def test_an_invoice_is_overdue_from_the_day_after_its_due_date(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, monkeypatch: pytest.MonkeyPatch
) -> None:
    await sign_in("alice")
    monkeypatch.setattr(invoice_summary, "business_today", lambda: date(2026, 6, 16))
    assert (await client.get(_dashboard(world, "alice"))).json()["amountOverdue"] == "340.25"


async def test_without_invoice_access_the_invoice_figures_are_absent_not_zero(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    body = (await client.get(_dashboard(world, "bob"))).json()
    assert body["nbActiveServices"] == 3
    assert body["nbOpenTickets"] == 3
    for name in ("currency", "date", "balance", "amountDue", "amountOverdue", "nbUnpaidInvoices"):
        assert name not in body


async def test_another_companys_user_sees_only_their_own_figures(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("claire")
    body = (await client.get(_dashboard(world, "claire"))).json()
    assert (body["nbActiveServices"], body["nbUnderConstructionServices"]) == (4, 0)
    assert (body["nbOpenTickets"], body["nbActiveTickets"], body["nbClosedTickets"]) == (5, 5, 0)
    assert "amountDue" not in body


async def test_staff_count_every_company(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    body = (await client.get(_dashboard(world, "admin"))).json()
    assert (body["nbActiveServices"], body["nbUnderConstructionServices"]) == (8, 3)
    assert (body["nbOpenTickets"], body["nbClosedTickets"]) == (9, 3)
    assert (body["amountDue"], body["amountOverdue"]) == ("10339.25", "10239.25")


@pytest.mark.parametrize(("reader", "owner"), [("bob", "alice"), ("alice", "claire")])
async def test_another_users_dashboard_is_not_found(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, reader: str, owner: str
) -> None:
    await sign_in(reader)
    assert (await client.get(_dashboard(world, owner))).status_code == 404
    assert (await client.get(f"/api/users/{uuid.uuid4()}/dashboard")).status_code == 404


async def test_the_counters_take_a_fixed_number_of_queries(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    statements: list[str] = []

    def record(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(world.engine, "before_cursor_execute", record)
    try:
        assert (await client.get(_dashboard(world, "alice"))).status_code == 200
    finally:
        event.remove(world.engine, "before_cursor_execute", record)
    counted = [
        text for text in statements if "services" in text or "tickets" in text or "invoices" in text
    ]
    assert len(counted) == 3, counted
