"""Contacts inside a maintenance shared by two companies (issue 18 item 5): each company sees
its own contacts and the provider's, never the other's; staff see them all. A contact belongs to
the company the integration API names, else to the company of the user with that e-mail."""

from typing import Any

import httpx
import sqlalchemy as sa
from sqlmodel import Session, select

from portal.provider.platform.models import Maintenance
from tests.provider.integration_helpers import add_service_type, counts, token_headers

MAINTENANCES = "/api/maintenances"


async def test_a_shared_maintenance_shows_each_company_its_own_contacts(
    client: httpx.AsyncClient, engine: sa.Engine, world: Any, sign_in: Any
) -> None:
    add_service_type(engine)
    headers = token_headers(world)
    companies = [
        {"reference": "C-ACME", "name": "Acme Networks"},
        {"reference": "C-GLOBEX", "name": "Globex"},
    ]
    await counts(client, "companies", companies, headers)
    services = [
        {"reference": ref, "company": company, "type": "ip_transit", "status": "active"}
        for ref, company in (("PB-A", "C-ACME"), ("PB-G", "C-GLOBEX"))
    ]
    await counts(client, "services", services, headers)
    shared = {
        "reference": "MNT-SHARED",
        "name": "Shared works",
        "type": "preventive",
        "classification": "outage",
        "status": "scheduled",
        "dateStart": "2026-12-02T01:00:00Z",
        "dateEnd": "2026-12-02T05:00:00Z",
        "services": ["PB-A", "PB-G"],
        "contacts": [
            "noc@patchbay.test",
            {"email": "noc@acme-networks.test", "company": "C-ACME"},
            {"email": "ops@globex.test", "company": "C-GLOBEX"},
            # A user's e-mail belongs to the user's company without saying so.
            "alice@acme-networks.test",
            # Nobody's: neither customer sees it, staff do.
            "someone@elsewhere.test",
        ],
    }
    assert await counts(client, "maintenances", [shared], headers) == (1, 0, 0)
    with Session(engine) as session:
        maintenance_id = session.exec(
            select(Maintenance.id).where(Maintenance.reference == "MNT-SHARED")
        ).one()
    path = f"{MAINTENANCES}/{maintenance_id}"
    seen = {}
    for reader in ("alice", "claire", "support"):
        await sign_in(reader)
        body = (await client.get(path)).json()
        seen[reader] = (
            sorted(contact["email"] for contact in body["contacts"]),
            sorted(service["reference"] for service in body["services"]),
        )
    assert seen["alice"] == (
        ["alice@acme-networks.test", "noc@acme-networks.test", "noc@patchbay.test"],
        ["PB-A"],
    )
    assert seen["claire"] == (["noc@patchbay.test", "ops@globex.test"], ["PB-G"])
    assert seen["support"] == (
        [
            "alice@acme-networks.test",
            "noc@acme-networks.test",
            "noc@patchbay.test",
            "ops@globex.test",
            "someone@elsewhere.test",
        ],
        ["PB-A", "PB-G"],
    )
    unknown = {**shared, "contacts": [{"email": "x@y.test", "company": "C-NONE"}]}
    response = await client.put("/api/integration/maintenances", json=[unknown], headers=headers)
    assert response.status_code == 422
    assert response.json()["violations"][0]["propertyPath"] == "[0].contacts[0].company"
