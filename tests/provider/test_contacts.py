"""The contacts tree (spec 2, Contacts; spec 3, Sales contact; spec 7 ``GET /api/companies?uuid[]=
…&includes[]=sales``): every company's sales representatives with their managers and assistants,
recursively, each person once per company, a loop in the data ending the walk, read in a fixed
number of queries, and only for the companies the reader may see."""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session

from portal.permissions import Role
from portal.provider.platform.models import Company, Job, User
from tests.provider.conftest import SignIn, World

# Who manages whom and who assists whom: a loop (Hugo's assistant Nathalie has Hugo as
# manager) and diamonds (Camille assists Julien and Thomas; Olivier is reached from Julien and
# from Marc) that the walk must survive, each person written once.
TEAM: dict[str, dict[str, Any]] = {
    "julien": {
        "job": Job.CORPORATE_SALES_MANAGER, "manager": "olivier",
        "assistants": ["camille", "gilles"],
    },
    # Named so as to come before Julien, his manager: both must still be written in full.
    "thomas": {
        "job": Job.BUSINESS_ENGINEER, "manager": "julien", "assistants": ["camille"],
        "lastname": "Abel",
    },
    "olivier": {"job": Job.SALES_DIRECTOR_FRANCE, "manager": "hugo", "assistants": ["nathalie"]},
    "hugo": {"job": Job.CEO, "assistants": ["nathalie"]},
    "nathalie": {"job": Job.SALES_MANAGEMENT_ASSISTANT, "manager": "hugo"},
    "camille": {"job": Job.SALES_ASSISTANT, "manager": "marc"},
    "marc": {"job": Job.SALES_ADMINISTRATION_MANAGER, "manager": "olivier"},
    "priya": {"job": Job.WHOLESALES_MANAGER, "manager": "sarah"},
    "sarah": {"job": Job.DEPUTY_SALES_DIRECTOR, "manager": "olivier"},
    "emma": {"job": Job.BUSINESS_ENGINEER, "manager": "priya"},
    # Deactivated: neither shown nor walked through.
    "gilles": {"job": Job.SALES_ASSISTANT, "manager": "zoe", "is_active": False},
    "zoe": {"job": Job.SALES_ASSISTANT},
}  # fmt: skip
SERVED_BY = {"acme": ["julien", "thomas"], "globex": ["priya"], "benelux": ["emma"]}
ACME_TREE = {"julien", "thomas", "olivier", "hugo", "nathalie", "camille", "marc"}


@pytest.fixture(scope="module", autouse=True)
def sales_team(world: World) -> None:
    for key, person in TEAM.items():
        world.add_user(
            key,
            "staff",
            roles=(Role.SPH_SALES,),
            job=person["job"],
            is_active=person.get("is_active", True),
            lastname=person.get("lastname", "Test"),
            office_phone="+33 1 99 00 11 00",
            mobile_phone="+33 6 39 98 11 00",
        )
    with Session(world.engine) as session:
        people = {key: session.get_one(User, world.users[key]) for key in TEAM}
        for key, person in TEAM.items():
            if "manager" in person:
                people[key].manager = people[person["manager"]]
            people[key].assistants = [people[other] for other in person.get("assistants", ())]
        for company, keys in SERVED_BY.items():
            session.get_one(Company, world.companies[company]).sales = [people[k] for k in keys]
        session.commit()


def _params(world: World, *companies: str) -> list[tuple[str, str]]:
    return [("uuid[]", str(world.companies[c])) for c in companies] + [("includes[]", "sales")]


async def _companies(client: httpx.AsyncClient, params: list[tuple[str, str]]) -> list[dict]:
    response = await client.get("/api/companies", params=params)
    assert response.status_code == 200, response.text
    return response.json()["hydra:member"]


def _expanded(node: Any) -> Iterator[dict]:
    """Every person written in full under ``node``: IRIs are references, not people."""
    if isinstance(node, dict):
        yield node
        yield from _expanded(node["manager"])
        for assistant in node["assistants"]:
            yield from _expanded(assistant)


def _iri(node: str | dict) -> str:
    return node if isinstance(node, str) else node["@id"]


def _keys(world: World, ids: list[str]) -> list[str]:
    by_id = {str(value): key for key, value in world.users.items()}
    return [by_id[i] for i in ids]


async def test_without_a_session_companies_answer_401(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/companies", params={"includes[]": "sales"})
    assert response.status_code == 401


async def test_the_tree_holds_every_manager_and_assistant_once_per_company(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    [acme] = await _companies(client, _params(world, "acme"))
    people = [person for sales in acme["sales"] for person in _expanded(sales)]
    keys = _keys(world, [person["id"] for person in people])
    assert sorted(keys) == sorted(ACME_TREE)  # nobody twice, nobody missing, Gilles left out
    # Both representatives in full in the list, whatever their places in each other's trees.
    assert _keys(world, [sales["id"] for sales in acme["sales"]]) == ["thomas", "julien"]
    assert all(isinstance(sales, dict) for sales in acme["sales"])
    by_key = dict(zip(keys, people, strict=True))
    # Every reference points to somebody written in full in the same company's tree.
    written = {person["@id"] for person in people}
    for person in people:
        references = [person["manager"], *person["assistants"]]
        assert all(_iri(r) in written for r in references if r is not None)
    # The loop: Hugo's assistant Nathalie has Hugo as manager, given as her IRI.
    hugo, nathalie = by_key["hugo"], by_key["nathalie"]
    assert hugo["manager"] is None
    assert [_iri(a) for a in hugo["assistants"]] == [nathalie["@id"]]
    assert nathalie["manager"] == hugo["@id"]
    # Thomas's manager is Julien, written already as a sales contact of Acme.
    assert by_key["thomas"]["manager"] == by_key["julien"]["@id"]
    # Camille assists both: written in full under Thomas, who comes first, then as her IRI.
    assert by_key["thomas"]["assistants"] == [by_key["camille"]]
    assert by_key["julien"]["assistants"] == [by_key["camille"]["@id"]]


async def test_a_person_is_written_again_for_another_company(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    """Each company's tree stands alone, so a reader can take one company without the other."""
    await sign_in("support")
    acme, globex = await _companies(client, _params(world, "acme", "globex"))
    globex_people = _keys(world, [p["id"] for s in globex["sales"] for p in _expanded(s)])
    assert sorted(globex_people) == ["hugo", "nathalie", "olivier", "priya", "sarah"]
    acme_people = _keys(world, [p["id"] for s in acme["sales"] for p in _expanded(s)])
    assert "olivier" in acme_people


async def test_contact_cards_carry_what_the_spec_shows(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    response = await client.get(
        "/api/companies", params=_params(world, "benelux"), headers={"Accept-Language": "fr"}
    )
    [emma] = response.json()["hydra:member"][0]["sales"]
    assert emma["job"] == "business_engineer"
    assert emma["jobLabel"] == "Ingénieur d'affaires"
    assert emma["fullName"] == "Emma Test"
    assert emma["officePhone"] == "+33 1 99 00 11 00"
    assert emma["mobilePhone"] == "+33 6 39 98 11 00"
    assert emma["email"] == "emma@patchbay.test"
    assert emma["manager"]["fullName"] == "Priya Test"


@contextmanager
def _statements(engine: sa.Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


async def test_the_whole_tree_is_one_recursive_query_not_one_per_person(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("support")
    counts = {}
    for companies in (("benelux",), ("acme", "globex", "benelux")):
        with _statements(world.engine) as statements:
            await _companies(client, _params(world, *companies))
        counts[companies] = len(statements)
        assert sum("RECURSIVE" in s.upper() for s in statements) == 1
    # 2 people for Benelux, 12 written for the three companies: the same number of queries.
    assert counts[("benelux",)] == counts[("acme", "globex", "benelux")]


@pytest.mark.parametrize(
    ("reader", "asked", "answered"),
    [
        # A customer gets their own companies only: the foreign uuid is simply left out.
        ("bob", ("acme", "globex", "benelux"), ["acme"]),
        ("alice", ("acme", "globex", "benelux"), ["acme", "benelux"]),
        ("claire", ("acme", "benelux"), []),
        ("claire", ("globex", "acme"), ["globex"]),
        # Staff read any company.
        ("support", ("acme", "globex"), ["acme", "globex"]),
        ("admin", ("benelux",), ["benelux"]),
    ],
)
async def test_a_foreign_companys_tree_is_never_returned(
    client: httpx.AsyncClient,
    world: World,
    sign_in: SignIn,
    reader: str,
    asked: tuple[str, ...],
    answered: list[str],
) -> None:
    await sign_in(reader)
    members = await _companies(client, _params(world, *asked))
    names = {str(value): key for key, value in world.companies.items()}
    assert [names[m["id"]] for m in members] == answered
    if reader == "claire" and "globex" in answered:
        # Priya serves Globex: nobody of Acme's own tree but the managers they share.
        people = {p["id"] for m in members for s in m["sales"] for p in _expanded(s)}
        assert str(world.users["julien"]) not in people
        assert str(world.users["thomas"]) not in people


@pytest.mark.parametrize(("reader", "status"), [("claire", 404), ("bob", 404), ("alice", 200)])
async def test_a_foreign_company_read_by_id_with_its_sales_is_not_found(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, reader: str, status: int
) -> None:
    await sign_in(reader)
    benelux = world.companies["benelux"]
    response = await client.get(f"/api/companies/{benelux}", params={"includes[]": "sales"})
    assert response.status_code == status
    if status == 200:
        assert response.json()["sales"][0]["fullName"] == "Emma Test"


async def test_without_includes_the_sales_are_iris_of_active_representatives(
    client: httpx.AsyncClient, world: World, sign_in: SignIn
) -> None:
    await sign_in("alice")
    [acme] = await _companies(client, [("uuid[]", str(world.companies["acme"]))])
    assert acme["sales"] == [f"/api/users/{world.users[k]}" for k in ("thomas", "julien")]


async def test_a_deactivated_representative_is_not_a_contact(
    client: httpx.AsyncClient, world: World, sign_in: SignIn, engine: sa.Engine
) -> None:
    ghost = world.add_user("ghost", "staff", roles=(Role.SPH_SALES,), is_active=False)
    with Session(engine) as session:
        globex = session.get_one(Company, world.companies["globex"])
        globex.sales = [*globex.sales, session.get_one(User, ghost)]
        session.commit()
    await sign_in("claire")
    [globex_out] = await _companies(client, _params(world, "globex"))
    assert [s["id"] for s in globex_out["sales"]] == [str(world.users["priya"])]
    assert uuid.UUID(globex_out["id"]) == world.companies["globex"]
