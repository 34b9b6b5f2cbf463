"""Maintenance windows (spec 2, 3 and 7): the list in both spellings, filtered on a service,
sorted; one maintenance with the impacted services the reader may see."""

from typing import Any

import httpx
import pytest

from tests.provider.conftest import SignIn
from tests.provider.services_data import Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]

MAINTENANCES = "/api/maintenances"


async def _list(client: httpx.AsyncClient, params: Any = None) -> Any:
    response = await client.get(MAINTENANCES, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def _references(body: Any) -> list[str]:
    return [member["reference"] for member in body["hydra:member"]]


async def test_maintenances_need_a_session(client: httpx.AsyncClient, catalogue: Catalogue) -> None:
    assert (await client.get(MAINTENANCES)).status_code == 401
    one = f"{MAINTENANCES}/{catalogue.maintenances['MNT-1']}"
    assert (await client.get(one)).status_code == 401


@pytest.mark.parametrize(
    ("reader", "expected"),
    [
        ("alice", ["MNT-1", "MNT-3"]),  # MNT-3 through her auxiliary company's service
        ("bob", ["MNT-1", "MNT-3"]),  # MNT-3 also impacts an Acme service
        ("claire", ["MNT-1", "MNT-2"]),
        ("admin", ["MNT-1", "MNT-2", "MNT-3", "MNT-4"]),  # staff also see those without services
    ],
)
async def test_customers_see_the_maintenances_impacting_their_services(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    reader: str,
    expected: list[str],
) -> None:
    await sign_in(reader)
    body = await _list(client)
    assert _references(body) == expected
    # Read as hydra:member/hydra:totalItems or as items/totalItems (spec 3).
    assert body["hydra:totalItems"] == body["totalItems"] == len(expected)
    assert body["items"] == body["hydra:member"]


async def test_a_maintenance_shows_every_field_of_the_contract(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    member = (await _list(client, {"service.reference": "PB-ETH-1001"}))["hydra:member"]
    maintenance_id = catalogue.maintenances["MNT-1"]
    assert member == [
        {
            "@id": f"/api/maintenances/{maintenance_id}",
            "@type": "Maintenance",
            "id": str(maintenance_id),
            "reference": "MNT-1",
            "name": "Works MNT-1",
            "type": "preventive",
            "typeLabel": "Preventive",
            "classification": "outage",
            "classificationLabel": "Outage",
            "status": "scheduled",
            "statusLabel": "Scheduled",
            "dateStart": "2026-12-03T22:00:00Z",
            "dateEnd": "2026-12-04T02:00:00Z",
            "dateNotification": "2026-11-03T09:00:00Z",
        }
    ]


async def test_the_service_filter_does_not_reveal_other_companies_services(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    # MNT-1 impacts PB-ETH-3001 (Globex) too: Acme must not learn it from the filter.
    assert _references(await _list(client, {"service.reference": "PB-ETH-3001"})) == []
    assert _references(await _list(client, {"service.reference": "PB-IPT-2001"})) == ["MNT-3"]
    await sign_in("claire")
    assert _references(await _list(client, {"service.reference": "PB-ETH-3001"})) == [
        "MNT-1",
        "MNT-2",
    ]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ({"order[dateStart]": "desc"}, ["MNT-4", "MNT-3", "MNT-1", "MNT-2"]),
        ({"order[dateStart]": "asc"}, ["MNT-2", "MNT-1", "MNT-3", "MNT-4"]),
        ({"order[dateEnd]": "desc"}, ["MNT-4", "MNT-3", "MNT-1", "MNT-2"]),
        ({"order[dateNotification]": "asc"}, ["MNT-2", "MNT-1", "MNT-3", "MNT-4"]),
    ],
)
async def test_maintenances_sort_on_their_dates(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    order: dict[str, str],
    expected: list[str],
) -> None:
    await sign_in("admin")
    assert _references(await _list(client, order)) == expected


async def test_maintenances_filter_on_a_period_and_their_status(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    period = {"dateEnd[after]": "2026-12-02T03:00:00", "dateStart[before]": "2026-12-05T23:00:00Z"}
    found = await _list(client, period)
    assert (_references(found), found["hydra:totalItems"]) == (["MNT-1", "MNT-3"], 2)
    # Counted beside its rows; a page past the end still tells the total.
    second = await _list(client, {**period, "itemsPerPage": 1, "page": 2})
    assert (_references(second), second["hydra:totalItems"]) == (["MNT-3"], 2)
    beyond = await _list(client, {**period, "itemsPerPage": 1, "page": 3})
    assert (_references(beyond), beyond["hydra:totalItems"]) == ([], 2)
    counted = await _list(client, {**period, "itemsPerPage": 0})
    assert (_references(counted), counted["hydra:totalItems"]) == ([], 2)
    assert _references(await _list(client, {"status[]": "cancelled"})) == []
    assert (await client.get(MAINTENANCES, params={"order[name]": "asc"})).status_code == 400
    assert (await client.get(MAINTENANCES, params={"status[]": "late"})).status_code == 400
    # Issue 18, item 9: a number was read as seconds since 1970 (20260101: 1970-08-23).
    for number in ("20260101", "0.5"):
        answer = await client.get(MAINTENANCES, params={"dateStart[before]": number})
        assert answer.status_code == 400


async def test_one_maintenance_lists_only_the_readers_impacted_services(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    path = f"{MAINTENANCES}/{catalogue.maintenances['MNT-1']}"
    response = await client.get(path, headers={"Accept-Language": "fr"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["statusLabel"] == "Planifiée"
    assert body["contacts"] == [{"email": "noc@patchbay.test", "name": None}]
    service_id = catalogue.services["PB-ETH-1001"]
    assert body["services"] == [
        {
            "@id": f"/api/services/{service_id}",
            "@type": "Service",
            "id": str(service_id),
            "reference": "PB-ETH-1001",
            "type": {"label": "Ligne privée Ethernet (EPL)"},
            "endpointA": {
                "name": "Équinix PA2",
                "number": None,
                "street": None,
                "postalCode": None,
                "city": "Saint-Denis",
                "country": "France",
            },
            "endpointB": {
                "name": "Telehouse 2",
                "number": None,
                "street": None,
                "postalCode": None,
                "city": "Paris",
                "country": "France",
            },
        }
    ]
    await sign_in("support")
    staff = (await client.get(path)).json()
    assert [service["reference"] for service in staff["services"]] == ["PB-ETH-1001", "PB-ETH-3001"]


@pytest.mark.parametrize(
    ("reader", "reference", "status"),
    [
        ("alice", "MNT-2", 404),
        ("claire", "MNT-3", 404),
        ("alice", "MNT-4", 404),
        ("claire", "MNT-2", 200),
        ("admin", "MNT-4", 200),
    ],
)
async def test_another_companys_maintenance_is_not_found(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    reader: str,
    reference: str,
    status: int,
) -> None:
    await sign_in(reader)
    response = await client.get(f"{MAINTENANCES}/{catalogue.maintenances[reference]}")
    assert response.status_code == status
