"""The collection builder: both spellings for sensors and maintenances, and links that keep the
query of the request."""

from starlette.requests import Request

from portal.provider.hydra import Collection, ItemsCollection, Pagination, collection


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
