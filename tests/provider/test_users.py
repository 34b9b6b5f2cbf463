"""Users (spec sections 2, 3 and 7): the item, the list, and who may see whom."""

import httpx
import pytest

from tests.provider.conftest import SignIn, World

USER_FIELDS = {
    "@id",
    "@type",
    "id",
    "firstname",
    "lastname",
    "email",
    "phoneNumber",
    "job",
    "roles",
    "company",
    "auxiliaryCompanies",
    "hasAcceptedTerms",
    "ldap",
}


def _emails(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [member["email"] for member in response.json()["hydra:member"]]


# --- who may read what ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/users", "/api/users/{alice}"])
async def test_without_a_session_users_answer_401(
    client: httpx.AsyncClient, world: World, path: str
) -> None:
    response = await client.get(path.format(alice=world.users["alice"]))
    assert response.status_code == 401
    assert response.json()["status"] == 401


@pytest.mark.parametrize(
    ("reader", "target", "status"),
    [
        ("alice", "bob", 200),  # same company
        ("alice", "bram", 200),  # bram's company is one of alice's auxiliary companies
        ("bram", "alice", 200),  # alice has bram's company as an auxiliary one
        ("bob", "bram", 404),  # bob is in Acme only
        ("alice", "claire", 404),  # another company: not found, not forbidden
        ("claire", "alice", 404),
        ("alice", "admin", 404),  # staff are not customers' colleagues
        ("admin", "claire", 200),  # staff read every company
        ("support", "alice", 200),
    ],
)
async def test_a_user_is_visible_only_within_the_readers_companies(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    reader: str,
    target: str,
    status: int,
) -> None:
    await sign_in(reader)
    response = await client.get(f"/api/users/{world.users[target]}")
    assert response.status_code == status


async def test_a_customer_lists_only_the_users_of_their_companies(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    emails = _emails(await client.get("/api/users", params={"itemsPerPage": 100}))
    assert "alice@acme-networks.test" in emails
    assert "bram@example.test" not in emails
    assert "claire@example.test" not in emails
    assert "admin@patchbay.test" not in emails


async def test_staff_list_every_user(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    response = await client.get("/api/users", params={"itemsPerPage": 100})
    assert response.json()["hydra:totalItems"] == len(world.users)


# --- the item ---------------------------------------------------------------------------------


async def test_a_user_links_its_companies_by_iri(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    alice = world.users["alice"]
    body = (await client.get(f"/api/users/{alice}")).json()
    assert set(body) == USER_FIELDS
    assert body == {
        "@id": f"/api/users/{alice}",
        "@type": "User",
        "id": str(alice),
        "firstname": "Alice",
        "lastname": "Martin",
        "email": "alice@acme-networks.test",
        "phoneNumber": "+33 1 99 00 21 01",
        "job": None,
        "roles": ["ROLE_MANAGE_USERS", "ROLE_ACCESS_INVOICES"],
        "company": f"/api/companies/{world.companies['acme']}",
        "auxiliaryCompanies": [f"/api/companies/{world.companies['benelux']}"],
        "hasAcceptedTerms": True,
        "ldap": False,
    }


@pytest.mark.parametrize("query", ["includes[]=company", "includes=company"])
async def test_includes_company_embeds_the_companies(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, query: str
) -> None:
    await sign_in("alice")
    body = (await client.get(f"/api/users/{world.users['alice']}?{query}")).json()
    acme, benelux = world.companies["acme"], world.companies["benelux"]
    assert body["company"] == {
        "@id": f"/api/companies/{acme}",
        "@type": "Company",
        "id": str(acme),
        "name": "Acme Networks",
    }
    assert body["auxiliaryCompanies"] == [
        {
            "@id": f"/api/companies/{benelux}",
            "@type": "Company",
            "id": str(benelux),
            "name": "Acme Networks Benelux",
        }
    ]


async def test_the_job_is_its_key(client: httpx.AsyncClient, world: World, sign_in: SignIn) -> None:
    await sign_in("alice")
    assert (await client.get(f"/api/users/{world.users['helene']}")).json()["job"] == "ceo"


@pytest.mark.parametrize(
    "path", ["/api/users/not-a-uuid", "/api/users/12345", "/api/users/%00", "/api/users/%C3%A9"]
)
async def test_a_malformed_id_is_not_found(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, path: str
) -> None:
    await sign_in("alice")
    response = await client.get(path)
    assert response.status_code == 404
    assert response.json()["@type"] == "hydra:Error"


# --- the list: filters, order, paging ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("helene", ["helene"]),
        ("HÉLÈNE élan", ["helene"]),
        ("elan", ["helene"]),
        ("alice martin", ["alice"]),
        ("%", []),
    ],
)
async def test_the_name_filter_ignores_case_and_accents(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, name: str, expected: list[str]
) -> None:
    await sign_in("alice")
    response = await client.get("/api/users", params={"name": name})
    ids = [member["id"] for member in response.json()["hydra:member"]]
    assert ids == [str(world.users[key]) for key in expected]


async def test_the_email_filter_matches_part_of_the_address(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    emails = _emails(await client.get("/api/users", params={"email": "ACME-net"}))
    assert emails == ["alice@acme-networks.test"]


async def test_the_company_filter_matches_the_main_company(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    response = await client.get(
        "/api/users", params={"company.uuid": str(world.companies["globex"])}
    )
    assert _emails(response) == ["claire@example.test"]


async def test_users_sort_by_last_name_then_first_name_by_default(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    response = await client.get("/api/users", params={"itemsPerPage": 100})
    names = [(m["lastname"], m["firstname"]) for m in response.json()["hydra:member"]]
    assert names == sorted(names)


@pytest.mark.parametrize("field", ["firstname", "lastname", "email"])
@pytest.mark.parametrize("direction", ["asc", "desc"])
async def test_users_sort_on_the_allowed_fields(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, field: str, direction: str
) -> None:
    await sign_in("admin")
    response = await client.get(f"/api/users?order[{field}]={direction}&itemsPerPage=100")
    values = [member[field] for member in response.json()["hydra:member"]]
    assert values == sorted(values, reverse=direction == "desc")


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Sorting by password is not supported."),
        ("fr", "Le tri par password n'est pas possible."),
    ],
)
async def test_sorting_on_another_field_answers_400(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, language: str, message: str
) -> None:
    await sign_in("admin")
    response = await client.get(
        "/api/users?order[password]=asc", headers={"Accept-Language": language}
    )
    assert response.status_code == 400
    assert response.json()["detail"] == message


async def test_a_sort_direction_other_than_asc_or_desc_answers_400(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    assert (await client.get("/api/users?order[email]=sideways")).status_code == 400


async def test_users_page_with_hydra_links(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    total = len(world.users)
    response = await client.get("/api/users?name=&itemsPerPage=2&page=2&order[email]=asc")
    body = response.json()
    assert body["@context"] == "/api/contexts/User"
    assert body["@id"] == "/api/users"
    assert body["@type"] == "hydra:Collection"
    assert body["hydra:totalItems"] == total
    assert len(body["hydra:member"]) == 2
    last = -(-total // 2)
    assert body["hydra:view"] == {
        "@id": "/api/users?name=&itemsPerPage=2&order[email]=asc&page=2",
        "@type": "hydra:PartialCollectionView",
        "hydra:first": "/api/users?name=&itemsPerPage=2&order[email]=asc&page=1",
        "hydra:last": f"/api/users?name=&itemsPerPage=2&order[email]=asc&page={last}",
        "hydra:previous": "/api/users?name=&itemsPerPage=2&order[email]=asc&page=1",
        "hydra:next": "/api/users?name=&itemsPerPage=2&order[email]=asc&page=3",
    }
    everyone = _emails(await client.get("/api/users?order[email]=asc&itemsPerPage=100"))
    assert [m["email"] for m in body["hydra:member"]] == everyone[2:4]


async def test_a_page_past_the_end_is_empty(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    first = (await client.get("/api/users")).json()
    body = (await client.get("/api/users?page=99")).json()
    assert body["hydra:member"] == []
    assert "hydra:next" not in body["hydra:view"]
    # The count rides on the page's rows; with none, it is read alone (hydra.paginate).
    assert body["hydra:totalItems"] == first["hydra:totalItems"] > 0


@pytest.mark.parametrize(
    "query",
    [
        "itemsPerPage=101",
        "itemsPerPage=-5",
        "itemsPerPage=ten",
        "page=0",
        "page=abc",
        "page=99999999999999999999999",
        "company.uuid=acme",
    ],
)
async def test_bad_paging_or_filter_values_answer_400(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, query: str
) -> None:
    await sign_in("admin")
    response = await client.get(f"/api/users?{query}", headers={"Accept-Language": "fr"})
    assert response.status_code == 400
    assert response.json()["title"] == "Requête incorrecte"


async def test_items_per_page_above_the_maximum_names_the_maximum(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    response = await client.get("/api/users?itemsPerPage=1000")
    assert response.json()["detail"] == "The number of items per page must be between 0 and 100."
