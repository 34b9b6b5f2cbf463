"""Monitoring sensors (spec 2, 3, 6 and 7): who reads which sensors, charts and legends (401,
403, 404), the list as ``items``/``totalItems`` in the screen's order, and the tag filter."""

import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlmodel import Session

from portal.provider.platform.models import Sensor, SensorLegendEntry, SensorStatus
from tests.provider.conftest import SignIn, World

SENSORS = "/api/sensors"


@dataclass
class Estate:
    sensors: dict[str, uuid.UUID] = field(default_factory=dict)


def _sensor(world: World, company: str, reference: str, **fields: Any) -> Sensor:
    sensor = Sensor(
        reference=reference,
        company_id=world.companies[company],
        group=str(fields.pop("group", "Paris TH2")),
        device=str(fields.pop("device", "par-ce1")),
        name=str(fields.pop("name", f"Traffic {reference}")),
        status=fields.pop("status", SensorStatus.UP),
        priority=int(fields.pop("priority", 3)),
        position=int(fields.pop("position", 1)),
        tags=list(fields.pop("tags", ["product_transit", "traffic"])),
        **fields,
    )
    sensor.legend = [
        SensorLegendEntry(sensor_id=sensor.id, key="traffic_in", name="Traffic in", unit="bit/s",
                          color="1f77b4"),
        SensorLegendEntry(sensor_id=sensor.id, key="traffic_out", name="Traffic out",
                          unit="bit/s", color="2ca02c"),
    ]  # fmt: skip
    return sensor


@pytest.fixture(scope="module")
def estate(world: World) -> Estate:
    world.add_user("noc", "globex", roles=("ROLE_ACCESS_MONITORING",), firstname="Noc")
    rows = [
        _sensor(world, "acme", "S-1", group="Paris TH2", device="par-ce1", priority=2, position=2),
        _sensor(world, "acme", "S-2", group="Paris TH2", device="par-ce1", priority=5, position=3),
        _sensor(world, "acme", "S-3", group="Paris TH2", device="par-ce1", priority=2, position=1),
        _sensor(world, "acme", "S-4", group="Lyon", device="lyo-ce2", tags=["product_path"]),
        _sensor(world, "benelux", "S-5", group="Brussels", device="bru-ce1",
                tags=["product_ethernet", "latency"]),
        _sensor(world, "globex", "S-9", group="London", device="lon-ce1"),
    ]  # fmt: skip
    with Session(world.engine) as session:
        session.add_all(rows)
        session.commit()
        return Estate({row.reference: row.id for row in rows})


async def _references(client: httpx.AsyncClient, query: str = "") -> list[str]:
    response = await client.get(f"{SENSORS}{query}")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["totalItems"] == body["hydra:totalItems"] == len(body["items"])
    assert body["items"] == body["hydra:member"]
    return [item["reference"] for item in body["items"]]


async def test_sensors_need_a_session(client: httpx.AsyncClient, estate: Estate) -> None:
    sensor = estate.sensors["S-1"]
    paths = (
        SENSORS,
        *(f"{SENSORS}/{sensor}/{end}" for end in ("chart/svg", "chart/data", "chart_legend")),
    )
    for path in paths:
        assert (await client.get(path)).status_code == 401


@pytest.mark.parametrize("user", ["alice", "claire"])
async def test_users_without_monitoring_access_are_refused(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate, user: str
) -> None:
    # alice manages users and invoices, claire users: neither may open the monitoring.
    await sign_in(user)
    sensor = estate.sensors["S-1"]
    paths = (
        SENSORS,
        *(f"{SENSORS}/{sensor}/{end}" for end in ("chart/svg", "chart/data", "chart_legend")),
    )
    for path in paths:
        assert (await client.get(path)).status_code == 403, path


async def test_a_customer_reads_only_the_sensors_of_their_companies_in_screen_order(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("bob")
    # Group, device, then priority descending, then position (spec 2).
    assert await _references(client) == ["S-4", "S-2", "S-3", "S-1"]


async def test_another_companys_sensor_chart_and_legend_are_not_found(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("bob")
    for reference in ("S-9", "S-5"):  # Globex's, and Benelux's which is not bob's company
        sensor = estate.sensors[reference]
        for suffix in ("/chart/svg", "/chart/data", "/chart_legend"):
            response = await client.get(f"{SENSORS}/{sensor}{suffix}")
            assert response.status_code == 404, (reference, suffix)
    unknown = uuid.uuid4()
    assert (await client.get(f"{SENSORS}/{unknown}/chart_legend")).status_code == 404


async def test_a_customer_of_another_company_sees_only_theirs(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("noc")
    assert await _references(client) == ["S-9"]
    for suffix in ("/chart/svg", "/chart/data"):
        response = await client.get(f"{SENSORS}/{estate.sensors['S-1']}{suffix}")
        assert response.status_code == 404, suffix


@pytest.mark.parametrize("user", ["admin", "support"])
async def test_admin_and_read_only_staff_read_every_company(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate, user: str
) -> None:
    await sign_in(user)
    assert set(await _references(client)) == set(estate.sensors)
    response = await client.get(f"{SENSORS}/{estate.sensors['S-9']}/chart_legend")
    assert response.status_code == 200
    response = await client.get(f"{SENSORS}/{estate.sensors['S-9']}/chart/data")
    assert response.status_code == 200


async def test_the_tag_filter_keeps_sensors_with_any_of_the_tags(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("admin")
    assert await _references(client, "?tags[]=product_path") == ["S-4"]
    assert await _references(client, "?tags[]=latency&tags[]=product_path") == ["S-5", "S-4"]
    assert await _references(client, "?tags[]=nothing") == []


async def test_the_list_pages_when_asked(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("bob")
    response = await client.get(f"{SENSORS}?itemsPerPage=2&page=2")
    body = response.json()
    assert body["totalItems"] == 4
    assert [item["reference"] for item in body["items"]] == ["S-3", "S-1"]
    assert (await client.get(f"{SENSORS}?order[colour]=asc")).status_code == 400


async def test_a_sensor_carries_the_fields_of_the_spec(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("bob")
    item = (await client.get(SENSORS)).json()["items"][0]
    assert item["@id"] == f"/api/sensors/{estate.sensors['S-4']}"
    assert {
        "group", "device", "name", "status", "priority", "favorite", "value", "isLookup", "desc",
        "descValue", "position", "tags", "clientReferences", "portLabel",
    } <= set(item)  # fmt: skip


async def test_the_legend_gives_name_unit_and_colour(
    client: httpx.AsyncClient, sign_in: SignIn, estate: Estate
) -> None:
    await sign_in("bob")
    body = (await client.get(f"{SENSORS}/{estate.sensors['S-1']}/chart_legend")).json()
    assert body["totalItems"] == 2
    assert [(e["name"], e["unit"], e["color"]) for e in body["items"]] == [
        ("Traffic in", "bit/s", "1f77b4"),
        ("Traffic out", "bit/s", "2ca02c"),
    ]
