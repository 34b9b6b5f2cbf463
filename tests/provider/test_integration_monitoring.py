"""Integration API: sensors with their legend, and samples in batches of ten thousand and more."""

import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from portal.provider.platform.db import preload
from portal.provider.platform.models import Sensor, SensorSample, Service
from tests.provider.conftest import World
from tests.provider.integration_helpers import (
    add_service_type,
    counts,
    put,
    token_headers,
    violations,
)

SENSOR = {
    "reference": "PRTG-1",
    "company": "C-ACME",
    "group": "Paris PA2",
    "device": "pa2-edge-01",
    "name": "Traffic xe-0/0/1",
    "status": "up",
    "tags": ["product_ip_transit"],
    "clientReferences": ["ACME-PAR-001"],
    "legend": [
        {"key": "in", "name": "Traffic in", "unit": "Mbit/s", "color": "1F77B4"},
        {"key": "out", "name": "Traffic out", "unit": "Mbit/s", "color": "ff7f0e"},
    ],
}
START = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
async def headers(client: httpx.AsyncClient, world: World) -> dict[str, str]:
    headers = token_headers(world)
    await counts(client, "companies", [{"reference": "C-ACME", "name": "Acme Networks"}], headers)
    await counts(client, "sensors", [SENSOR], headers)
    return headers


def sensor(world: World, reference: str) -> Sensor:
    with Session(world.engine) as session:
        statement = select(Sensor).where(Sensor.reference == reference)
        return session.exec(statement.options(*preload(Sensor.legend))).one()


def sample_count(world: World) -> int:
    with Session(world.engine) as session:
        return session.exec(select(func.count()).select_from(SensorSample)).one()


def samples(count: int, offset: float = 0.0) -> list[dict]:
    """``count`` five-minute samples, alternating the two channels."""
    return [
        {
            "sensor": "PRTG-1",
            "key": "in" if index % 2 == 0 else "out",
            "at": (START + timedelta(minutes=5 * (index // 2))).isoformat(),
            "value": index + offset,
        }
        for index in range(count)
    ]


async def test_a_sensor_is_created_updated_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    stored = sensor(world, "PRTG-1")
    assert stored.company_id == world.companies["acme"]
    assert sorted((e.key, e.color) for e in stored.legend) == [("in", "1f77b4"), ("out", "ff7f0e")]
    assert await counts(client, "sensors", [SENSOR], headers) == (0, 0, 1)
    legend = [{"key": "in", "name": "Inbound", "unit": "Mbit/s", "color": "1f77b4"}]
    changed = {**SENSOR, "status": "down", "legend": legend}
    assert await counts(client, "sensors", [changed], headers) == (0, 1, 0)
    stored = sensor(world, "PRTG-1")
    assert stored.status == "down"
    assert [(e.key, e.name) for e in stored.legend] == [("in", "Inbound")]
    assert await counts(client, "sensors", [SENSOR], headers) == (0, 1, 0)


async def test_sensor_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    twice = [SENSOR["legend"][0], SENSOR["legend"][0]]
    body = [
        {**SENSOR, "reference": "PRTG-OK"},
        {**SENSOR, "reference": "PRTG-2", "company": "C-404"},
        {**SENSOR, "reference": "PRTG-3", "legend": [{**twice[0], "color": "#123456"}]},
        {**SENSOR, "reference": "PRTG-4", "legend": twice},
    ]
    assert violations(await put(client, "sensors", body, headers)) == [
        "[1].company",
        "[2].legend[0].color",
        "[3].legend[1].key",
    ]


async def test_a_sensor_names_the_service_it_watches(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    add_service_type(world.engine, "sensor_watch")
    companies = [{"reference": "C-GLOBEX", "name": "Globex"}]
    await counts(client, "companies", companies, headers)
    services = [
        {"reference": ref, "company": company, "type": "sensor_watch", "status": "active"}
        for ref, company in (("PB-WATCHED", "C-ACME"), ("PB-GLOBEX", "C-GLOBEX"))
    ]
    await counts(client, "services", services, headers)
    assert await counts(client, "sensors", [{**SENSOR, "service": "PB-WATCHED"}], headers) == (
        0,
        1,
        0,
    )
    with Session(world.engine) as session:
        watched = session.exec(select(Service).where(Service.reference == "PB-WATCHED")).one()
    assert sensor(world, "PRTG-1").service_id == watched.id
    # Absent, the service stays; null, it is forgotten.
    assert await counts(client, "sensors", [SENSOR], headers) == (0, 0, 1)
    assert await counts(client, "sensors", [{**SENSOR, "service": None}], headers) == (0, 1, 0)
    assert sensor(world, "PRTG-1").service_id is None
    body = [
        {**SENSOR, "service": "PB-NOWHERE"},
        {**SENSOR, "reference": "PRTG-9", "service": "PB-GLOBEX"},
    ]
    assert violations(await put(client, "sensors", body, headers)) == ["[0].service", "[1].service"]


async def test_ten_thousand_samples_are_written_in_one_batch_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    before = sample_count(world)
    began = time.perf_counter()
    assert await counts(client, "samples", samples(10_000), headers) == (10_000, 0, 0)
    elapsed = time.perf_counter() - began
    assert sample_count(world) == before + 10_000
    assert elapsed < 30, f"10 000 samples took {elapsed:.1f} s"

    assert await counts(client, "samples", samples(10_000), headers) == (0, 0, 10_000)
    corrected = samples(10_000)
    corrected[0]["value"] = -1.0
    more = samples(10_010)[10_000:]
    assert await counts(client, "samples", corrected + more, headers) == (10, 1, 9_999)
    assert sample_count(world) == before + 10_010


async def test_a_bad_sample_batch_writes_nothing(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    before = sample_count(world)
    body = samples(2_000, offset=0.5)
    body[7] = {**body[7], "sensor": "PRTG-404"}
    body[8] = {**body[8], "key": "errors"}
    body[9] = {**body[9], "value": "NaN"}
    body[11] = dict(body[10])
    assert violations(await put(client, "samples", body, headers)) == [
        "[7].sensor",
        "[8].key",
        "[9].value",
        "[11].at",
    ]
    assert sample_count(world) == before


async def test_a_batch_over_the_limit_is_refused_whole(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    before = sample_count(world)
    response = await put(client, "samples", samples(50_001), headers)
    assert response.status_code == 413
    assert "50000" in response.json()["detail"].replace(" ", "").replace(",", "")
    assert sample_count(world) == before
