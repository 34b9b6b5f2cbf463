"""A company's extra notice addresses (issue 50, item 4): its user managers list, add and
remove them; nothing but the confirmation link goes to an address until it is followed; no
one reaches another company's addresses (404) nor manages them without the right (403)."""

import uuid
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from portal.provider.platform.mail import wait_for_deliveries
from portal.provider.platform.mail.notices import send_due_notices
from portal.provider.platform.mail.outbox import deliver_due
from portal.provider.platform.models import utcnow
from portal.provider.platform.notice_links import signed_token
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import add_service_type, counts, token_headers
from tests.provider.mailbox import Sink, body
from tests.provider.notice_helpers import links_portal, notice_sink

__all__ = ["links_portal", "notice_sink"]

START = datetime.now(UTC).replace(microsecond=0) + timedelta(days=5)


def _addresses(world: World, company: str) -> str:
    return f"/api/companies/{world.companies[company]}/notice_addresses"


@pytest.fixture
def sink(notice_sink: Sink) -> Sink:
    return notice_sink


@pytest.fixture
def portal(links_portal: FastAPI) -> FastAPI:
    return links_portal


def _received(engine: sa.Engine, sink: Sink) -> dict[str, list[str]]:
    later = utcnow() + timedelta(seconds=get_settings().maintenance_notice_delay_seconds + 1)
    send_due_notices(engine, now=later)
    wait_for_deliveries()
    deliver_due(engine)
    found: dict[str, list[str]] = {}
    for recipients, message in sink.messages:
        found.setdefault(recipients[0], []).append(str(message["Subject"]))
    sink.messages.clear()
    return found


async def test_an_address_receives_notices_only_once_confirmed(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, sink: Sink, portal: FastAPI
) -> None:
    headers = token_headers(world)
    add_service_type(world.engine)
    await counts(client, "companies", [{"reference": "C-ACME", "name": "Acme Networks"}], headers)
    service = {"reference": "PB-N1", "company": "C-ACME", "type": "ip_transit", "status": "active"}
    await counts(client, "services", [service], headers)

    await sign_in("alice")
    added = await client.post(
        _addresses(world, "acme"),
        json={"email": " NOC@Acme-Networks.test", "language": "fr", "timeZone": "Europe/Paris"},
    )
    assert added.status_code == 201, added.text
    assert added.json()["email"] == "noc@acme-networks.test"
    assert added.json()["confirmedAt"] is None
    # The confirmation link, in the address's language, is all that goes there.
    wait_for_deliveries()
    [(to, confirmation)] = sink.messages
    sink.messages.clear()
    assert to == ["noc@acme-networks.test"]
    assert (
        confirmation["Subject"] == "Confirmez cette adresse pour les avis de maintenance Patchbay"
    )
    link = next(word for word in body(confirmation, "plain").split() if "/confirm-notices/" in word)
    maintenance = {
        "reference": "MNT-N1",
        "name": "Fibre splice",
        "type": "preventive",
        "classification": "outage",
        "status": "scheduled",
        "dateStart": START.isoformat(),
        "dateEnd": (START + timedelta(hours=2)).isoformat(),
        "services": ["PB-N1"],
    }
    await counts(client, "maintenances", [maintenance], headers)
    assert "noc@acme-networks.test" not in _received(world.engine, sink)

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(portal), base_url="http://localhost:3000"
    ) as browser:
        assert (await browser.get(link)).status_code == 200  # a page: the GET changes nothing
        listed = (await client.get(_addresses(world, "acme"))).json()
        assert listed[0]["confirmedAt"] is None
        # A confirmation link cannot unsubscribe, nor an unsubscribe link confirm.
        address_id = listed[0]["id"]
        unsubscribe = signed_token("unsubscribe", "address", uuid.UUID(address_id))
        assert (await browser.post(f"/confirm-notices/{unsubscribe}")).status_code == 404
        token = link.rsplit("/", 1)[1]
        assert (await browser.post(f"/unsubscribe/{token}")).status_code == 404
        assert (await browser.post(link)).status_code == 200
    assert (await client.get(_addresses(world, "acme"))).json()[0]["confirmedAt"] is not None

    maintenance["dateEnd"] = (START + timedelta(hours=3)).isoformat()
    await counts(client, "maintenances", [maintenance], headers)
    [subject] = _received(world.engine, sink)["noc@acme-networks.test"]
    assert subject.startswith("[Patchbay] Maintenance modifiée : MNT-N1")


async def test_only_the_companys_user_managers_reach_its_addresses(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, sink: Sink
) -> None:
    await sign_in("alice")
    added = await client.post(_addresses(world, "benelux"), json={"email": "noc@benelux.test"})
    assert added.status_code == 201, added.text
    one = f"{_addresses(world, 'benelux')}/{added.json()['id']}"
    # Another company's user manager: as if the company did not exist.
    await sign_in("claire")
    assert (await client.get(_addresses(world, "benelux"))).status_code == 404
    assert (
        await client.post(_addresses(world, "benelux"), json={"email": "x@y.test"})
    ).status_code == 404
    assert (await client.delete(one)).status_code == 404
    # A user of the company without the right to manage users: refused.
    await sign_in("bob")
    assert (await client.get(_addresses(world, "acme"))).status_code == 403
    # An address of another company under this company's path: 404.
    await sign_in("alice")
    other = f"{_addresses(world, 'acme')}/{added.json()['id']}"
    assert (await client.delete(other)).status_code == 404
    assert (await client.delete(one)).status_code == 204
    assert (await client.delete(one)).status_code == 404


async def test_what_is_not_an_address_is_refused_with_its_field(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, sink: Sink
) -> None:
    await sign_in("alice")
    url = _addresses(world, "benelux")
    for payload, field in (
        ({"email": "not an address"}, "email"),
        ({"email": "ok@benelux.test", "timeZone": "Nowhere/Else"}, "timeZone"),
    ):
        response = await client.post(url, json=payload)
        assert response.status_code == 422, response.text
        assert [v["propertyPath"] for v in response.json()["violations"]] == [field]
    assert (await client.post(url, json={"email": "dup@benelux.test"})).status_code == 201
    again = await client.post(url, json={"email": "DUP@benelux.test"})
    assert [v["propertyPath"] for v in again.json()["violations"]] == ["email"]
