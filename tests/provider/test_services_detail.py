"""One service in full (spec 2 Service detail, 3 and 4): labels in the reader's language,
milestones, documents, order form link by permission, attributes, and the service types."""

from typing import Any

import httpx
import pytest

from tests.provider.conftest import SignIn, World
from tests.provider.services_data import Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]

INCLUDES = [("includes[]", "order"), ("includes[]", "company"), ("includes[]", "type")]


async def _service(
    client: httpx.AsyncClient, catalogue: Catalogue, reference: str, language: str = "en"
) -> Any:
    response = await client.get(
        f"/api/services/{catalogue.services[reference]}",
        params=INCLUDES,
        headers={"Accept-Language": language},
    )
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_service_shows_every_field_of_the_contract(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("alice")
    service_id = catalogue.services["PB-ETH-1001"]
    service = await _service(client, catalogue, "PB-ETH-1001")
    assert service["@id"] == f"/api/services/{service_id}"
    assert service["id"] == str(service_id)
    assert service["reference"] == "PB-ETH-1001"
    assert service["clientReferences"] == ["ACME-PAR-001", "PO-2024-0001"]
    assert (service["status"], service["statusLabel"]) == ("active", "Operational")
    assert service["dateStart"] == "2024-01-10"
    assert service["dateTermination"] is None
    assert service["company"] == {
        "@id": f"/api/companies/{world.companies['acme']}",
        "@type": "Company",
        "id": str(world.companies["acme"]),
        "name": "Acme Networks",
    }
    assert service["type"]["label"] == "Ethernet private line (EPL)"
    assert service["order"] == {
        "reference": "BC-PB-ETH-1001",
        "pdf": f"/api/services/{service_id}/order_pdf",
        "pdfName": "BC-PB-ETH-1001.pdf",
    }
    assert service["endpointA"] == {
        "name": "Équinix PA2",
        "number": None,
        "street": None,
        "postalCode": None,
        "city": "Saint-Denis",
        "country": "France",
    }
    assert service["endpointB"]["city"] == "Paris"
    assert service["deliveryManager"] == {
        "firstname": "Admin",
        "lastname": "Test",
        "email": "admin@patchbay.test",
    }
    assert service["handovers"] == [
        {
            "name": "handover PB-ETH-1001.pdf",
            "link": f"/api/services/{service_id}/documents/{catalogue.documents['handover']}",
        }
    ]
    assert [loa["name"] for loa in service["loas"]] == ["LOA.pdf", "x.txt"]
    assert service["milestones"] == []


async def test_attributes_are_labelled_and_ordered_by_group(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    english = (await _service(client, catalogue, "PB-ETH-1001"))["attributes"]
    assert [(item["groupName"], item["name"]) for item in english] == [
        ("characteristics", "rate"),
        ("characteristics", "rackCount"),
        ("characteristics", "serviceLevel"),
        ("deliveryPointA", "rack"),
    ]
    assert english[2] == {
        "name": "serviceLevel",
        "label": "Service level",
        "value": "highAvailability",
        "valueLabel": "High availability",
        "groupName": "characteristics",
        "groupLabel": "Characteristics",
        "constrained": True,
    }
    french = (await _service(client, catalogue, "PB-ETH-1001", "fr"))["attributes"]
    assert [(item["label"], item["valueLabel"]) for item in french] == [
        ("Débit", "10 Gbit/s"),
        ("Unités de baie", "0,5 U"),
        ("Niveau de service", "Haute disponibilité"),
        ("Baie", "B07"),
    ]
    assert french[3]["groupLabel"] == "Point de livraison A"


async def test_labels_follow_the_readers_language(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    service = await _service(client, catalogue, "PB-DFB-1003", "fr-FR,fr;q=0.9")
    assert service["statusLabel"] == "Résilié"
    assert service["type"]["label"] == "Fibre noire – métropolitaine"


async def test_a_service_under_construction_lists_its_milestones_in_order(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    service = await _service(client, catalogue, "PB-WAV-1002")
    assert service["statusLabel"] == "Under construction"
    assert service["dateStart"] is None
    assert [(item["name"], item["completed"], item["date"]) for item in service["milestones"]] == [
        ("received", True, "2026-10-01"),
        ("in_study", True, "2026-10-02"),
        ("in_progress", False, "2026-10-03"),
        ("tested", False, None),
        ("operational", False, None),
    ]
    assert service["milestones"][0]["label"] == "Order received"
    assert service["endpointB"] is None
    assert service["deliveryManager"] is None


@pytest.mark.parametrize(
    ("reader", "readable"), [("alice", True), ("support", True), ("bob", False)]
)
async def test_the_order_form_link_needs_access_to_order_pdf(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, reader: str, readable: bool
) -> None:
    await sign_in(reader)
    order = (await _service(client, catalogue, "PB-ETH-1001"))["order"]
    assert order["reference"] == "BC-PB-ETH-1001"
    assert (order["pdf"] is not None) is readable


async def test_service_types_come_all_at_once_in_the_readers_language(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    response = await client.get(
        "/api/service_types", params={"itemsPerPage": 200}, headers={"Accept-Language": "fr"}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["hydra:totalItems"] == 5
    first = body["hydra:member"][0]
    assert first == {
        "@id": f"/api/service_types/{catalogue.types['ethernet_epl']}",
        "@type": "ServiceType",
        "id": str(catalogue.types["ethernet_epl"]),
        "uuid": str(catalogue.types["ethernet_epl"]),
        "key": "ethernet_epl",
        "label": "Ligne privée Ethernet (EPL)",
    }
    one = await client.get(first["@id"].replace("/api", "/api", 1))
    assert one.json()["label"] == "Ethernet private line (EPL)"
