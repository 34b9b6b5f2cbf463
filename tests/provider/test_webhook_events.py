"""What the webhooks are sent (issue 51): the provider's systems' maintenances, tickets and
sensor states through the integration API, and a customer's own ticket writes, each queued for
the subscribed endpoints of the companies concerned with the object as the API shows it to that
company — a shared maintenance lists only the receiving company's services and contacts. The
endpoints are held by a claim here, so the tests read what was queued and nothing leaves."""

import json
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform import webhooks
from portal.provider.platform.models import (
    Company,
    WebhookDelivery,
    WebhookEndpoint,
    utcnow,
)
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import add_service_type, counts, token_headers

MAINTENANCE = {
    "reference": "MNT-W1",
    "name": "Line card replacement",
    "type": "preventive",
    "classification": "outage",
    "status": "scheduled",
    "services": ["W-ACME-1", "W-GLOBEX-1"],
    "contacts": [
        {"email": "noc@acme.example", "company": "W-ACME"},
        {"email": "noc@globex.example", "company": "W-GLOBEX"},
    ],
}


@pytest.fixture(scope="module")
def estate(world: World) -> World:
    add_service_type(world.engine, "webhook_transit")
    world.add_user("wendy", "acme", roles=(Role.MANAGE_USERS,))
    with Session(world.engine) as db:
        for key in ("acme", "globex"):
            db.get_one(Company, world.companies[key]).reference = f"W-{key.upper()}"
        db.commit()
    return world


@pytest.fixture
async def headers(client: httpx.AsyncClient, estate: World) -> dict[str, str]:
    headers = token_headers(estate)
    services = [
        {"reference": f"W-{key}-1", "company": f"W-{key}", "type": "webhook_transit",
         "status": "active"}
        for key in ("ACME", "GLOBEX")
    ]  # fmt: skip
    await counts(client, "services", services, headers)
    return headers


@pytest.fixture(autouse=True)
def clean(engine: sa.Engine) -> Iterator[None]:
    yield
    webhooks.wait_for_deliveries()
    with engine.begin() as connection:
        connection.execute(sa.delete(WebhookDelivery))
        connection.execute(sa.delete(WebhookEndpoint))


def _endpoint(world: World, company: str, *events: str) -> uuid.UUID:
    """An endpoint of ``company`` for ``events``, claimed for a day: nothing is sent."""
    with Session(world.engine) as db:
        endpoint = WebhookEndpoint(
            company_id=world.companies[company],
            url="https://hooks.example.com/",
            event_types=list(events),
            secret="",
            claimed_until=utcnow() + timedelta(days=1),
        )
        endpoint.secret = webhooks.seal_secret(webhooks.new_secret(), endpoint.id)
        db.add(endpoint)
        db.commit()
        return endpoint.id


def _events(world: World, endpoint_id: uuid.UUID) -> list[dict[str, Any]]:
    with Session(world.engine) as db:
        statement = (
            select(WebhookDelivery.payload)
            .where(col(WebhookDelivery.endpoint_id) == endpoint_id)
            .order_by(col(WebhookDelivery.id))
        )
        return [json.loads(payload) for payload in db.exec(statement)]


async def test_a_shared_maintenance_shows_each_company_only_its_own_services(
    client: httpx.AsyncClient, estate: World, headers: dict[str, str]
) -> None:
    maintenance_events = ("maintenance.scheduled", "maintenance.updated", "maintenance.cancelled")
    acme = _endpoint(estate, "acme", *maintenance_events)
    globex = _endpoint(estate, "globex", *maintenance_events)
    tickets_only = _endpoint(estate, "acme", "ticket.created")
    start = utcnow() + timedelta(days=3)
    window = {
        **MAINTENANCE,
        "dateStart": start.isoformat(),
        "dateEnd": (start + timedelta(hours=4)).isoformat(),
    }
    await counts(client, "maintenances", [window], headers)
    [acme_event] = _events(estate, acme)
    [globex_event] = _events(estate, globex)
    assert acme_event["type"] == globex_event["type"] == "maintenance.scheduled"
    assert set(acme_event) == {"type", "timestamp", "data"}
    assert acme_event["data"]["reference"] == "MNT-W1"
    assert acme_event["data"]["@id"] == globex_event["data"]["@id"]
    assert [s["reference"] for s in acme_event["data"]["services"]] == ["W-ACME-1"]
    assert [s["reference"] for s in globex_event["data"]["services"]] == ["W-GLOBEX-1"]
    assert [c["email"] for c in acme_event["data"]["contacts"]] == ["noc@acme.example"]
    assert [c["email"] for c in globex_event["data"]["contacts"]] == ["noc@globex.example"]
    assert _events(estate, tickets_only) == []

    # Moved: an update to both; Globex's service taken out: cancelled for Globex alone.
    moved = {**window, "dateEnd": (start + timedelta(hours=6)).isoformat()}
    await counts(client, "maintenances", [moved], headers)
    await counts(client, "maintenances", [{**moved, "services": ["W-ACME-1"]}], headers)
    assert [e["type"] for e in _events(estate, acme)] == [
        "maintenance.scheduled",
        "maintenance.updated",
    ]
    globex_types = [e["type"] for e in _events(estate, globex)]
    assert globex_types == ["maintenance.scheduled", "maintenance.updated", "maintenance.cancelled"]
    assert _events(estate, globex)[-1]["data"]["services"] == []
    await counts(client, "maintenances", [{**moved, "status": "cancelled"}], headers)
    assert _events(estate, acme)[-1]["type"] == "maintenance.cancelled"
    assert len(_events(estate, globex)) == 3


async def test_tickets_of_the_helpdesk_and_of_the_customer_are_announced(
    client: httpx.AsyncClient, sign_in: SignIn, estate: World, headers: dict[str, str]
) -> None:
    acme = _endpoint(estate, "acme", "ticket.created", "ticket.updated")
    globex = _endpoint(estate, "globex", "ticket.created", "ticket.updated")
    ticket = {
        "reference": "HD-W1",
        "number": 97001,
        "company": "W-ACME",
        "name": "Packet loss",
        "subject": "Packet loss since 09:40",
        "status": "inProgress",
        "priority": "high",
    }
    await counts(client, "tickets", [ticket], headers)
    await counts(client, "tickets", [{**ticket, "status": "onHold"}], headers)
    reply = {"reference": "R-W1", "ticket": "HD-W1", "author": "Helpdesk", "body": "On it."}
    await counts(client, "ticket_replies", [reply], headers)
    await sign_in("wendy")
    opened = await client.post(
        "/api/tickets",
        json={"subject": "Slow link", "description": "Since noon.", "type": "incident",
              "priority": "low", "company": str(estate.companies["acme"])},
    )  # fmt: skip
    assert opened.status_code == 201, opened.text
    events = _events(estate, acme)
    assert [(e["type"], e["data"]["subject"]) for e in events] == [
        ("ticket.created", "Packet loss since 09:40"),
        ("ticket.updated", "Packet loss since 09:40"),
        ("ticket.updated", "Packet loss since 09:40"),
        ("ticket.created", "Slow link"),
    ]
    assert events[1]["data"]["status"] == "onHold"
    assert events[3]["data"]["@id"] == opened.json()["@id"]
    assert _events(estate, globex) == []


async def test_a_sensor_status_change_is_announced_to_its_company(
    client: httpx.AsyncClient, estate: World, headers: dict[str, str]
) -> None:
    acme = _endpoint(estate, "acme", "sensor.status_changed")
    globex = _endpoint(estate, "globex", "sensor.status_changed")
    sensor = {
        "reference": "PRTG-W1",
        "company": "W-ACME",
        "group": "Paris",
        "device": "pa2-edge-01",
        "name": "Traffic",
        "status": "up",
    }
    await counts(client, "sensors", [sensor], headers)
    await counts(client, "sensors", [{**sensor, "name": "Traffic in"}], headers)
    assert _events(estate, acme) == []  # created, renamed: no status change
    await counts(client, "sensors", [{**sensor, "status": "down"}], headers)
    [event] = _events(estate, acme)
    assert event["type"] == "sensor.status_changed"
    assert event["data"]["reference"] == "PRTG-W1"
    assert event["data"]["status"] == "down"
    assert _events(estate, globex) == []
