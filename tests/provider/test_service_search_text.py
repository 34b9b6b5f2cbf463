"""The folded search column of services stays in step with everything it is made of (spec 2:
the search finds reference, client references, endpoints and type in either language)."""

import httpx
from sqlmodel import Session, select

from portal.provider.platform.models import Endpoint, Service, ServiceType
from tests.provider.conftest import SignIn, World
from tests.provider.services_data import Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]


async def _found(client: httpx.AsyncClient, search: str) -> list[str]:
    response = await client.get("/api/services", params={"search": search})
    assert response.status_code == 200, response.text
    return [member["reference"] for member in response.json()["hydra:member"]]


def _search_text(world: World, reference: str) -> str:
    with Session(world.engine) as session:
        return session.exec(select(Service).where(Service.reference == reference)).one().search_text


async def test_the_search_text_is_folded_from_every_part(
    catalogue: Catalogue, world: World
) -> None:
    assert _search_text(world, "PB-ETH-1001") == (
        "pb-eth-1001 acme-par-001 po-2024-0001 ethernet private line (epl) "
        "ligne privee ethernet (epl) equinix pa2 saint-denis telehouse 2 paris"
    )


async def test_a_renamed_endpoint_is_found_under_its_new_name(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    with Session(world.engine) as session:
        service = session.get_one(Service, catalogue.services["PB-COL-1004"])
        endpoint = session.get_one(Endpoint, service.endpoint_a_id)
        endpoint.city = "Pantin"
        endpoint.name = "Campus Pantin Îlot B"
        session.add(endpoint)
        session.commit()
    await sign_in("alice")
    assert await _found(client, "ilot b") == ["PB-COL-1004"]
    assert await _found(client, "pantin") == ["PB-COL-1004"]
    assert await _found(client, "interxion par7") == []


async def test_a_relabelled_type_is_found_under_its_new_label(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    with Session(world.engine) as session:
        service_type = session.get_one(ServiceType, catalogue.types["dark_fibre_metro"])
        service_type.label_fr = "Fibre noire – métro"
        session.add(service_type)
        session.commit()
    await sign_in("admin")
    assert await _found(client, "fibre noire – metro") == ["PB-DFB-1003", "PB-DFB-3002"]
    assert await _found(client, "metropolitaine") == []
