"""The collection builder: both spellings for sensors and maintenances, and links that keep the
query of the request; ``includes[]`` takes only the relations a resource embeds (400 else)."""

import re
import uuid
from typing import Any

import httpx
from starlette.requests import Request

from portal.provider.platform.hydra import Collection, ItemsCollection, Pagination, collection
from tests.provider.conftest import SignIn, World


def _request(query: bytes) -> Request:
    return Request(
        {
            "type": "http",
            "method": "GET",
            "path": "/provider/api/sensors",
            "root_path": "/provider",
            "query_string": query,
            "headers": [],
        }
    )


def test_a_collection_can_also_be_read_as_items_and_total_items() -> None:
    request = _request(b"tags[]=product_path&page=2&itemsPerPage=2")
    page = collection(request, "Sensor", ["a", "b"], 5, Pagination(2, 2), with_items=True)
    assert isinstance(page, ItemsCollection)
    assert page.model_dump(by_alias=True) == {
        "@context": "/api/contexts/Sensor",
        "@id": "/api/sensors",
        "@type": "hydra:Collection",
        "hydra:member": ["a", "b"],
        "hydra:totalItems": 5,
        "items": ["a", "b"],
        "totalItems": 5,
        "hydra:view": {
            "@id": "/api/sensors?tags[]=product_path&itemsPerPage=2&page=2",
            "@type": "hydra:PartialCollectionView",
            "hydra:first": "/api/sensors?tags[]=product_path&itemsPerPage=2&page=1",
            "hydra:last": "/api/sensors?tags[]=product_path&itemsPerPage=2&page=3",
            "hydra:previous": "/api/sensors?tags[]=product_path&itemsPerPage=2&page=1",
            "hydra:next": "/api/sensors?tags[]=product_path&itemsPerPage=2&page=3",
        },
    }


def test_an_empty_collection_has_one_page_and_no_neighbours() -> None:
    page: Collection[str] = collection(_request(b""), "Sensor", [], 0, Pagination(1, 10))
    view = page.model_dump(by_alias=True)["hydra:view"]
    assert view["hydra:first"] == view["hydra:last"] == "/api/sensors?page=1"
    assert "hydra:next" not in view
    assert "hydra:previous" not in view
    assert "items" not in page.model_dump(by_alias=True)


def test_a_count_alone_has_one_page() -> None:
    page: Collection[str] = collection(
        _request(b"itemsPerPage=0"), "Sensor", [], 42, Pagination(1, 0)
    )
    view = page.model_dump(by_alias=True)["hydra:view"]
    assert view["hydra:last"] == "/api/sensors?itemsPerPage=0&page=1"
    assert "hydra:next" not in view


def _operations_with_includes(document: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    """(method, path, documented relations) of every operation that takes ``includes[]``."""
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", ()):
                if parameter["name"] == "includes[]":
                    found.append((method, path, parameter["schema"]["items"].get("enum", [])))
    return found


async def test_an_unknown_include_answers_400_as_an_unknown_sort_field_does(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    sort_error = (await client.get("/api/users?order[password]=asc")).json()
    operations = _operations_with_includes((await client.get("/openapi.json")).json())
    assert len(operations) >= 12  # users, services, invoices, tickets, companies and their writes
    for method, template, relations in operations:
        path = re.sub(r"\{[^}]+\}", str(uuid.uuid4()), template)
        body = {} if method in ("post", "put", "patch") else None
        response = await client.request(method, path, params={"includes[]": "password"}, json=body)
        assert response.status_code == 400, (method, template, response.text)
        error = response.json()
        assert error["detail"] == "Embedding password is not supported.", (method, template)
        assert error.keys() == sort_error.keys()
        assert error["@type"] == sort_error["@type"]
        assert relations, (method, template)  # the document says what may be embedded
        # What the document names is accepted, alone and together.
        for wanted in [[relation] for relation in relations] + [relations]:
            response = await client.request(method, path, params={"includes[]": wanted}, json=body)
            assert "Embedding" not in response.text, (method, template, wanted)


async def test_an_unknown_include_speaks_the_callers_language(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    response = await client.get("/api/services?includes[]=owner", headers={"Accept-Language": "fr"})
    assert response.status_code == 400
    assert response.json()["detail"] == "L'inclusion de owner n'est pas possible."
