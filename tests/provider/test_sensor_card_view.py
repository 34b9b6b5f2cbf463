"""The sensors list's card view (issue 55, item 5): what the monitoring screen shows of each
sensor, once, for a fraction of the full list's bytes; the same readers, sensors, order and
filters as the full list; 422 for a view that does not exist."""

import random
import uuid

import httpx
import pytest
from sqlmodel import Session

from portal.provider.demo_data.sensors import LOOKUP_VALUES, TEMPLATES
from portal.provider.platform.models import Sensor, SensorStatus
from tests.provider.conftest import SignIn, World

SENSORS = "/api/sensors"
CARD_FIELDS = {
    "id", "group", "device", "name", "status", "priority", "favorite", "value", "isLookup",
    "desc", "descValue", "position", "tags",
}  # fmt: skip
HEAVY = 2000


@pytest.fixture(scope="module")
def estate(world: World) -> dict[str, uuid.UUID]:
    """Acme's 2 000 sensors shaped as the benchmark's (bench/generate/monitoring.py), and one
    of Globex's."""
    rng = random.Random(55)
    rows = []
    for ordinal in range(HEAVY):
        template = rng.choice(TEMPLATES)
        port = f"xe-{rng.randint(0, 7)}/{rng.randint(0, 3)}/{rng.randint(0, 47)}"
        lookup = rng.choice(list(LOOKUP_VALUES)) if template.is_lookup else None
        rows.append(
            Sensor(
                reference=f"SEN-{ordinal + 1:07d}",
                company_id=world.companies["acme"],
                group=f"Paris TH{rng.randint(1, 3)}",
                device=f"par-{'core' if rng.random() < 0.5 else 'edge'}{rng.randint(1, 9)}",
                name=template.name.format(port=port),
                status=rng.choice(list(SensorStatus)),
                priority=rng.randint(1, 5),
                favorite=rng.random() < 0.05,
                value=lookup or f"{rng.uniform(1, 999):.1f} Mbit/s",
                is_lookup=template.is_lookup,
                desc=template.description,
                desc_value=LOOKUP_VALUES[lookup] if lookup else None,
                position=ordinal,
                tags=["product_path"] if rng.random() < 0.3 else [],
                port_label=port,
            )
        )
    rows.append(
        Sensor(
            reference="SEN-GLOBEX",
            company_id=world.companies["globex"],
            group="London",
            device="lon-ce1",
            name="Ping lon",
            status=SensorStatus.UP,
            priority=1,
            position=1,
            tags=["latency"],
        )
    )
    with Session(world.engine) as session:
        session.add_all(rows)
        session.commit()
        return {row.reference: row.id for row in rows}


async def test_the_card_view_sends_what_the_screen_shows_for_a_fraction_of_the_bytes(
    client: httpx.AsyncClient, sign_in: SignIn, estate: dict[str, uuid.UUID]
) -> None:
    await sign_in("bob")
    full = await client.get(SENSORS)
    cards = await client.get(SENSORS, params={"view": "card"})
    assert full.status_code == cards.status_code == 200
    full_items, card_items = full.json()["items"], cards.json()["items"]
    assert cards.json()["totalItems"] == len(card_items) == HEAVY
    assert set(cards.json()) == {"items", "totalItems"}
    # The same sensors in the same order, each with what its card shows and nothing else.
    assert [item["id"] for item in card_items] == [item["id"] for item in full_items]
    for card, item in zip(card_items, full_items, strict=True):
        assert set(card) <= CARD_FIELDS
        assert {name: value for name, value in item.items() if name in CARD_FIELDS} == {
            name: card.get(name) for name in CARD_FIELDS
        }
    # Issue 55, item 5: 1.75 MB for the bench's 2 000 sensors.
    ratio = len(cards.content) / len(full.content)
    print(f"\n2 000 sensors: full {len(full.content):,} B, card {len(cards.content):,} B")
    assert ratio < 0.4, (len(full.content), len(cards.content))


async def test_the_card_view_reads_only_the_readers_sensors_and_filters(
    client: httpx.AsyncClient, sign_in: SignIn, estate: dict[str, uuid.UUID]
) -> None:
    await sign_in("claire")
    response = await client.get(SENSORS, params={"view": "card"})
    assert response.status_code == 403  # no monitoring access
    await sign_in("admin")
    tagged = await client.get(SENSORS, params={"view": "card", "tags[]": "latency"})
    assert [item["id"] for item in tagged.json()["items"]] == [str(estate["SEN-GLOBEX"])]
    await sign_in("bob")
    paged = await client.get(SENSORS, params={"view": "card", "itemsPerPage": 2, "page": 2})
    assert paged.json()["totalItems"] == HEAVY
    assert len(paged.json()["items"]) == 2
    assert str(estate["SEN-GLOBEX"]) not in (await client.get(f"{SENSORS}?view=card")).text


async def test_an_unknown_view_is_refused(
    client: httpx.AsyncClient, sign_in: SignIn, estate: dict[str, uuid.UUID]
) -> None:
    await sign_in("bob")
    response = await client.get(SENSORS, params={"view": "everything"})
    # A bad query parameter is the provider's 400 naming it (portal/provider/platform/errors.py).
    assert response.status_code == 400
    assert response.json()["detail"] == "The parameter view is not valid."


async def test_the_openapi_documents_both_views(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    operation = document["paths"]["/api/sensors"]["get"]
    [view] = [parameter for parameter in operation["parameters"] if parameter["name"] == "view"]
    assert document["components"]["schemas"]["SensorView"]["enum"] == ["full", "card"]
    assert view["schema"]["default"] == "full"
    answer = operation["responses"]["200"]["content"]["application/ld+json"]["schema"]
    assert {"$ref": "#/components/schemas/SensorCardsOut"} in answer["anyOf"]
