"""Companies (spec section 7): scoped like users, searched by name or ids, with sales contacts."""

import httpx
import pytest
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.platform.models import Company, Job, User
from tests.provider.conftest import SignIn, World


@pytest.fixture(scope="module", autouse=True)
def sales_team(world: World) -> None:
    """Acme is served by Julien, whose manager Olivier has Nathalie as assistant; Julien's own
    assistant is Camille. Olivier's manager is Julien, a loop the contacts must survive."""
    for key, job in [
        ("julien", Job.CORPORATE_SALES_MANAGER),
        ("olivier", Job.SALES_DIRECTOR_FRANCE),
        ("nathalie", Job.SALES_MANAGEMENT_ASSISTANT),
        ("camille", Job.SALES_ASSISTANT),
    ]:
        world.add_user(
            key, "staff", roles=(Role.SPH_SALES,), job=job, office_phone="+33 1 99 00 11 00"
        )
    with Session(world.engine) as session:
        julien, olivier, nathalie, camille = (
            session.get_one(User, world.users[key])
            for key in ("julien", "olivier", "nathalie", "camille")
        )
        julien.manager = olivier
        julien.assistants = [camille]
        olivier.assistants = [nathalie]
        olivier.manager = julien
        session.get_one(Company, world.companies["acme"]).sales = [julien]
        session.commit()


def _names(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [member["name"] for member in response.json()["hydra:member"]]


async def test_a_customer_lists_their_main_and_auxiliary_companies(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    assert _names(await client.get("/api/companies")) == ["Acme Networks", "Acme Networks Benelux"]


async def test_staff_list_every_company(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("support")
    assert _names(await client.get("/api/companies")) == [
        "Acme Networks",
        "Acme Networks Benelux",
        "Globex",
        "Patchbay",
    ]


async def test_a_staff_role_stored_on_an_outside_email_reads_as_a_customer(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Stored before the staff-domain rule covered every staff role (or behind its back): it
    gives nothing, so the account reads its own company only, not every customer's."""
    world.add_user("outsider", "acme", roles=(Role.SPH_READ_ONLY,), email="ro@outside.test")
    await sign_in("outsider")
    assert _names(await client.get("/api/companies")) == ["Acme Networks"]
    response = await client.get(f"/api/companies/{world.companies['globex']}")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("reader", "company", "status"),
    [
        ("alice", "benelux", 200),
        ("bob", "benelux", 404),
        ("claire", "acme", 404),
        ("admin", "globex", 200),
    ],
)
async def test_another_companys_record_is_not_found(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    reader: str,
    company: str,
    status: int,
) -> None:
    await sign_in(reader)
    response = await client.get(f"/api/companies/{world.companies[company]}")
    assert response.status_code == status


async def test_the_name_filter_matches_part_of_the_name_in_any_case(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("admin")
    assert _names(await client.get("/api/companies", params={"name": "NETWORKS b"})) == [
        "Acme Networks Benelux"
    ]


@pytest.mark.parametrize("parameter", ["uuid[]", "uuid"])
async def test_companies_are_read_by_ids(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, parameter: str
) -> None:
    await sign_in("admin")
    ids = [world.companies["globex"], world.companies["acme"]]
    response = await client.get("/api/companies", params=[(parameter, str(i)) for i in ids])
    assert _names(response) == ["Acme Networks", "Globex"]


async def test_ids_outside_the_customers_companies_are_left_out(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("bob")
    ids = [world.companies["globex"], world.companies["acme"]]
    response = await client.get("/api/companies", params=[("uuid[]", str(i)) for i in ids])
    assert _names(response) == ["Acme Networks"]


async def test_sales_are_iris_unless_included(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    acme = world.companies["acme"]
    body = (await client.get(f"/api/companies/{acme}")).json()
    assert body == {
        "@id": f"/api/companies/{acme}",
        "@type": "Company",
        "id": str(acme),
        "name": "Acme Networks",
        "sales": [f"/api/users/{world.users['julien']}"],
        "secondFactorRequired": False,
    }


async def test_included_sales_carry_their_managers_and_assistants(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    acme = world.companies["acme"]
    response = await client.get(
        "/api/companies",
        params={"uuid[]": str(acme), "includes[]": "sales"},
        headers={"Accept-Language": "fr"},
    )
    julien = response.json()["hydra:member"][0]["sales"][0]
    assert julien["@id"] == f"/api/users/{world.users['julien']}"
    assert julien["job"] == "corporate_sales_manager"
    assert julien["jobLabel"] == "Responsable des ventes grands comptes"
    assert julien["fullName"] == "Julien Test"
    assert julien["officePhone"] == "+33 1 99 00 11 00"
    assert julien["mobilePhone"] is None
    assert julien["email"] == "julien@patchbay.test"
    assert [assistant["firstname"] for assistant in julien["assistants"]] == ["Camille"]
    olivier = julien["manager"]
    assert olivier["firstname"] == "Olivier"
    assert [assistant["firstname"] for assistant in olivier["assistants"]] == ["Nathalie"]
    # Olivier's manager is Julien again: given as an IRI instead of recursing forever.
    assert olivier["manager"] == julien["@id"]


@pytest.mark.parametrize(
    ("reader", "names"),
    [
        ("admin", ["Apatchbayx", "Patchbay", "Patchbay Labs", "Zone Patchbay"]),
        # Staff, but not admins: spec 6 hides the companies whose name begins or ends with it.
        ("support", ["Apatchbayx"]),
        ("julien", ["Apatchbayx"]),
    ],
)
async def test_the_name_search_hides_staff_companies_from_all_but_admins(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, reader: str, names: list[str]
) -> None:
    if "labs" not in world.companies:
        world.add_company("labs", "Patchbay Labs")
        world.add_company("zone", "Zone Patchbay")
        world.add_company("middle", "Apatchbayx")  # neither begins nor ends with the name
    await sign_in(reader)
    found = _names(await client.get("/api/companies", params={"name": "patchbay"}))
    assert found == names
