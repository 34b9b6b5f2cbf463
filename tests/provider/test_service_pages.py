"""Services list pages across companies (issue 55, docs/decisions/deep-service-pages.md): a
reader of several companies gets one order whatever the page, for every sort the screen offers
in both directions, with and without a filter; a user limited in one of her companies gets her
granted services there and every service of the other; staff read every company's.

The list is read one ordered branch per company, merged by the database: the pages walked one by
one must give exactly the rows of the reader's companies, sorted as a single list would be."""

import random
import uuid
from dataclasses import dataclass
from datetime import date
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session

from portal.provider.platform.models import (
    Service,
    ServiceStatus,
    ServiceType,
    UserAccessLimit,
    UserServiceGrant,
)
from tests.provider.conftest import SignIn, World

SERVICES = "/api/services"
PER_PAGE = 4
# (order parameter, field): the screen's sortable columns; none is the reference ascending.
SORTS = [
    ({}, "reference", False),
    ({"order[reference]": "asc"}, "reference", False),
    ({"order[reference]": "desc"}, "reference", True),
    ({"order[dateStart]": "asc"}, "date_start", False),
    ({"order[dateStart]": "desc"}, "date_start", True),
    ({"order[status]": "asc"}, "status", False),
    ({"order[status]": "desc"}, "status", True),
]
FILTERED = (ServiceStatus.ACTIVE, ServiceStatus.TERMINATED)


@dataclass(frozen=True)
class Row:
    reference: str
    company: str
    status: str
    date_start: date | None
    id: uuid.UUID


@dataclass
class Estate:
    rows: list[Row]
    granted: set[str]  # references granted to lea in Acme, where she is limited
    nulls_last_ascending: bool  # PostgreSQL puts NULL after every date, SQLite before


@pytest.fixture(scope="module")
def estate(world: World, engine: sa.Engine) -> Estate:
    """Services spread over Acme (many), Acme Benelux (alice's auxiliary company) and Globex,
    their references interleaved, their dates and statuses repeated, some without a date."""
    world.add_user("lea", "acme", auxiliary=("benelux",), firstname="Léa")
    chance = random.Random(55)
    statuses = list(ServiceStatus)
    days = [date(2024, 1, 1), date(2024, 6, 1), date(2025, 3, 15), date(2023, 9, 9), None]
    rows: list[Row] = []
    with Session(engine) as session:
        kind = ServiceType(key="ethernet_epl", label_en="EPL", label_fr="EPL")
        session.add(kind)
        for number in range(1, 43):
            company = chance.choice(["acme", "acme", "acme", "benelux", "globex"])
            service = Service(
                reference=f"PB-{number:04d}",
                company_id=world.companies[company],
                type=kind,
                status=chance.choice(statuses),
                date_start=chance.choice(days),
            )
            session.add(service)
            rows.append(
                Row(service.reference, company, service.status, service.date_start, service.id)
            )
        session.flush()
        granted = set(sorted(row.reference for row in rows if row.company == "acme")[::3])
        lea = world.users["lea"]
        session.add(UserAccessLimit(user_id=lea, company_id=world.companies["acme"]))
        session.add_all(
            UserServiceGrant(user_id=lea, service_id=row.id, company_id=world.companies["acme"])
            for row in rows
            if row.reference in granted
        )
        session.commit()
    return Estate(rows, granted, nulls_last_ascending=engine.dialect.name == "postgresql")


def _expected(
    estate: Estate, rows: list[Row], field: str, descending: bool, filtered: bool
) -> list[str]:
    if filtered:
        rows = [row for row in rows if row.status in FILTERED]

    def key(row: Row) -> tuple[Any, ...]:
        if field != "date_start":
            return (getattr(row, field), row.reference)
        missing = row.date_start is None
        # NULL is the greatest date on PostgreSQL, the least on SQLite.
        rank = missing if estate.nulls_last_ascending else not missing
        return (rank, row.date_start or date.min, row.reference)

    # The reference breaks ties in the direction of the sort: the whole order turns round.
    return [row.reference for row in sorted(rows, key=key, reverse=descending)]


def _visible(estate: Estate, reader: str) -> list[Row]:
    if reader == "admin":
        return estate.rows
    if reader == "lea":
        granted = estate.granted
        return [
            row
            for row in estate.rows
            if row.company == "benelux" or (row.company == "acme" and row.reference in granted)
        ]
    return [row for row in estate.rows if row.company in ("acme", "benelux")]


async def _page(client: httpx.AsyncClient, params: dict[str, Any]) -> tuple[list[str], int]:
    response = await client.get(SERVICES, params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    return [member["reference"] for member in body["hydra:member"]], body["hydra:totalItems"]


@pytest.mark.parametrize("filtered", [False, True], ids=["all", "status filter"])
@pytest.mark.parametrize(("order", "field", "descending"), SORTS, ids=lambda value: str(value))
@pytest.mark.parametrize("reader", ["alice", "lea", "admin"])
async def test_every_page_of_every_sort_follows_one_order_across_companies(
    client: httpx.AsyncClient,
    estate: Estate,
    sign_in: SignIn,
    reader: str,
    order: dict[str, str],
    field: str,
    descending: bool,
    filtered: bool,
) -> None:
    await sign_in(reader)
    expected = _expected(estate, _visible(estate, reader), field, descending, filtered)
    params: dict[str, Any] = {**order, "itemsPerPage": PER_PAGE}
    if filtered:
        params["status[]"] = [status.value for status in FILTERED]
    walked: list[str] = []
    pages = -(-len(expected) // PER_PAGE)
    for number in range(1, pages + 2):
        references, total = await _page(client, {**params, "page": number})
        assert total == len(expected), number
        walked.extend(references)
    assert walked == expected
    # A deep page read alone, as a link or a typed page number reaches it.
    last = (len(expected) - 1) // PER_PAGE
    deep, _ = await _page(client, {**params, "page": last + 1})
    assert deep == expected[last * PER_PAGE :]


async def test_the_data_set_mixes_companies_on_every_sort(estate: Estate) -> None:
    """The test above proves the merge only if each reader's rows come from both companies and
    repeat the sorted values, so that ties and interleaving occur."""
    theirs = [row for row in estate.rows if row.company in ("acme", "benelux")]
    assert {row.company for row in theirs} == {"acme", "benelux"}
    assert len({row.status for row in theirs}) == len(ServiceStatus)
    assert any(row.date_start is None for row in theirs)
    assert len({row.date_start for row in theirs}) < len(theirs)
    assert estate.granted
    assert any(row.company == "globex" for row in estate.rows)
