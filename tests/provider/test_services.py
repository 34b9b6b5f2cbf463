"""Services (spec 2, 3, 4 and 7): the list with its search, filters, sort and includes, and one
service, each kept to the reader's companies."""

import httpx
import pytest

from tests.provider.conftest import SignIn, World
from tests.provider.services_data import Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]

ACME_ALL = ["PB-COL-1004", "PB-DFB-1003", "PB-ETH-1001", "PB-IPT-2001", "PB-WAV-1002"]


def _references(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [member["reference"] for member in response.json()["hydra:member"]]


# --- who may read what ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/api/services", "/api/services/{id}", "/api/service_types", "/api/service_types/{type}"],
)
async def test_without_a_session_services_answer_401(
    client: httpx.AsyncClient, catalogue: Catalogue, path: str
) -> None:
    service_id, type_id = catalogue.services["PB-ETH-1001"], catalogue.types["ip_transit"]
    response = await client.get(path.format(id=service_id, type=type_id))
    assert response.status_code == 401


async def test_a_user_who_has_not_accepted_the_terms_is_sent_to_them(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("newbie")
    response = await client.get("/api/services")
    assert response.status_code == 403
    assert response.json()["code"] == "required_terms"


@pytest.mark.parametrize(
    ("reader", "expected"),
    [
        ("alice", ACME_ALL),  # Acme and her auxiliary company Acme Benelux
        ("bob", [ref for ref in ACME_ALL if ref != "PB-IPT-2001"]),  # Acme only
        ("claire", ["PB-DFB-3002", "PB-ETH-3001"]),
        ("admin", sorted([*ACME_ALL, "PB-DFB-3002", "PB-ETH-3001"])),
        ("support", sorted([*ACME_ALL, "PB-DFB-3002", "PB-ETH-3001"])),
    ],
)
async def test_the_list_holds_the_readers_companies_services_only(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    reader: str,
    expected: list[str],
) -> None:
    await sign_in(reader)
    response = await client.get("/api/services", params={"itemsPerPage": 50})
    assert _references(response) == expected
    assert response.json()["hydra:totalItems"] == len(expected)


@pytest.mark.parametrize(
    ("reader", "reference", "status"),
    [
        ("alice", "PB-IPT-2001", 200),
        ("bob", "PB-IPT-2001", 404),
        ("alice", "PB-ETH-3001", 404),
        ("claire", "PB-ETH-1001", 404),
        ("claire", "PB-ETH-3001", 200),
        ("support", "PB-ETH-1001", 200),
    ],
)
async def test_another_companys_service_is_not_found(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    reader: str,
    reference: str,
    status: int,
) -> None:
    await sign_in(reader)
    response = await client.get(f"/api/services/{catalogue.services[reference]}")
    assert response.status_code == status


async def test_an_unknown_or_malformed_id_is_not_found(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    assert (
        await client.get("/api/services/00000000-0000-4000-8000-000000000000")
    ).status_code == 404
    assert (await client.get("/api/services/nonsense")).status_code == 404


# --- search and filters -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        ("PB-ETH", ["PB-ETH-1001"]),  # reference
        ("pb-eth-1001", ["PB-ETH-1001"]),  # any case
        ("acme-lil", ["PB-DFB-1003"]),  # a client reference
        ("po-2024", ["PB-ETH-1001"]),  # the second client reference
        ("equinix", ["PB-ETH-1001"]),  # an endpoint's name, without its accent
        ("ÉQUINIX", ["PB-ETH-1001"]),
        ("amsterdam", ["PB-IPT-2001"]),  # an endpoint's city
        ("fibre noire", ["PB-DFB-1003"]),  # the type's French label, two words
        ("Dark fibre", ["PB-DFB-1003"]),  # and its English one
        ("metropolitaine", ["PB-DFB-1003"]),
        ("  paris  ", ["PB-COL-1004", "PB-ETH-1001"]),  # trimmed
        ("paris telehouse", ["PB-ETH-1001"]),  # every word must match
        ("GLX", []),  # another company's client reference
        ("100%", []),  # LIKE wildcards are plain characters
        ("_", []),
        ("", ACME_ALL),
    ],
)
async def test_the_search_finds_reference_client_references_endpoints_and_type(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    search: str,
    expected: list[str],
) -> None:
    await sign_in("alice")
    response = await client.get("/api/services", params={"search": search})
    assert _references(response) == expected


async def test_the_status_filter_takes_several_values_in_either_spelling(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    bracketed = await client.get(
        "/api/services", params=[("status[]", "active"), ("status[]", "terminated")]
    )
    assert _references(bracketed) == ["PB-DFB-1003", "PB-ETH-1001", "PB-IPT-2001"]
    plain = await client.get("/api/services", params={"status": "under_construction"})
    assert _references(plain) == ["PB-WAV-1002"]


async def test_the_type_filter_takes_type_ids(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    params = [
        ("type.uuid[]", str(catalogue.types["ethernet_epl"])),
        ("type.uuid[]", str(catalogue.types["ip_transit"])),
    ]
    assert _references(await client.get("/api/services", params=params)) == [
        "PB-ETH-1001",
        "PB-IPT-2001",
    ]
    plain = {"type.uuid": str(catalogue.types["colocation_rack"]), "status[]": "active"}
    assert _references(await client.get("/api/services", params=plain)) == []


async def test_filters_combine(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    params = [
        ("search", "ethernet"),
        ("status[]", "active"),
        ("type.uuid[]", str(catalogue.types["ethernet_epl"])),
    ]
    assert _references(await client.get("/api/services", params=params)) == [
        "PB-ETH-1001",
        "PB-ETH-3001",
    ]


@pytest.mark.parametrize(
    "params",
    [
        {"status[]": "cancelled"},
        {"type.uuid[]": "not-a-uuid"},
        {"order[company]": "asc"},
        {"order[dateStart]": "up"},
        {"search": "x" * 201},
        {"itemsPerPage": -1},
    ],
)
async def test_bad_list_parameters_answer_400(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, params: dict[str, object]
) -> None:
    await sign_in("alice")
    response = await client.get("/api/services", params=params)
    assert response.status_code == 400, response.text


# --- sort, paging, includes -------------------------------------------------------------------


STARTED = [("status[]", "active"), ("status[]", "terminated"), ("status[]", "under_termination")]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ([("order[reference]", "desc")], list(reversed(ACME_ALL))),
        (
            # Services without a start date sort first or last depending on the database.
            [("order[dateStart]", "asc"), *STARTED],
            ["PB-DFB-1003", "PB-COL-1004", "PB-IPT-2001", "PB-ETH-1001"],
        ),
        (
            [("order[dateStart]", "desc"), *STARTED],
            ["PB-ETH-1001", "PB-IPT-2001", "PB-COL-1004", "PB-DFB-1003"],
        ),
        (
            [("order[status]", "asc"), ("order[reference]", "desc")],
            ["PB-IPT-2001", "PB-ETH-1001", "PB-DFB-1003", "PB-WAV-1002", "PB-COL-1004"],
        ),
    ],
)
async def test_the_list_sorts_on_its_allowed_fields(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    order: list[tuple[str, str]],
    expected: list[str],
) -> None:
    await sign_in("alice")
    assert _references(await client.get("/api/services", params=order)) == expected


async def test_the_list_pages_with_hydra_links(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    response = await client.get("/api/services", params={"itemsPerPage": 2, "page": 2})
    body = response.json()
    assert _references(response) == ACME_ALL[2:4]
    assert body["hydra:totalItems"] == 5
    assert body["hydra:view"]["hydra:last"].endswith("page=3")
    assert body["hydra:view"]["hydra:next"].endswith("page=3")


async def test_no_items_per_page_counts_without_a_member(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    body = (await client.get("/api/services", params={"itemsPerPage": 0})).json()
    assert (body["hydra:member"], body["hydra:totalItems"]) == ([], len(ACME_ALL))
    assert body["hydra:view"]["hydra:last"].endswith("page=1")
    assert "hydra:next" not in body["hydra:view"]


async def test_relations_are_iris_unless_included(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("alice")
    plain = (await client.get("/api/services", params={"search": "PB-ETH-1001"})).json()
    service = plain["hydra:member"][0]
    assert service["type"] == f"/api/service_types/{catalogue.types['ethernet_epl']}"
    assert service["company"] == f"/api/companies/{world.companies['acme']}"
    params = [("search", "PB-ETH-1001"), ("includes[]", "type"), ("includes[]", "company")]
    included = (await client.get("/api/services", params=params)).json()["hydra:member"][0]
    assert included["type"] == {
        "@id": f"/api/service_types/{catalogue.types['ethernet_epl']}",
        "@type": "ServiceType",
        "id": str(catalogue.types["ethernet_epl"]),
        "uuid": str(catalogue.types["ethernet_epl"]),
        "key": "ethernet_epl",
        "label": "Ethernet private line (EPL)",
    }
    assert included["company"]["name"] == "Acme Networks"
