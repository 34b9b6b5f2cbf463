"""The provider's one read path (portal/provider/platform/lists.py): how a list's order is read
from ``order[field]``, and the helpers its filters share."""

import pytest
from sqlalchemy.dialects import sqlite
from sqlmodel import col, select
from starlette.requests import Request

from portal.provider.platform.errors import ApiError
from portal.provider.platform.lists import ListOf, Sorting, either, words
from portal.provider.platform.models import Invoice, Service
from portal.provider.platform.scoping import companies, staff_only

DATE, DUE, REFERENCE = col(Invoice.date_invoice), col(Invoice.date_due), col(Invoice.reference)
INVOICES = Sorting(
    {"dateInvoice": DATE, "dateDue": DUE, "reference": REFERENCE},
    default=(("dateInvoice", True),),
    tiebreak=REFERENCE,
)


async def _read(sorting: Sorting, query: str) -> list[tuple[object, bool]]:
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": query.encode()}
    return await sorting.read(Request(scope))


async def test_the_default_order_applies_when_none_is_asked() -> None:
    assert await _read(INVOICES, "") == [(DATE, True), (REFERENCE, True)]


async def test_the_tiebreak_follows_the_last_field_and_is_not_repeated() -> None:
    assert await _read(INVOICES, "order[dateDue]=asc") == [(DUE, False), (REFERENCE, False)]
    assert await _read(INVOICES, "order[reference]=desc&order[dateDue]=asc") == [
        (REFERENCE, True),
        (DUE, False),
    ]


async def test_a_field_named_twice_keeps_its_first_direction() -> None:
    asked = "order[dateDue]=desc&order[dateDue]=asc"
    assert await _read(INVOICES, asked) == [(DUE, True), (REFERENCE, True)]


async def test_the_then_columns_always_follow() -> None:
    users = Sorting({"reference": REFERENCE}, then=((DATE, False),))
    assert await _read(users, "order[reference]=desc") == [(REFERENCE, True), (DATE, False)]
    assert await _read(users, "") == [(DATE, False)]


@pytest.mark.parametrize("query", ["order[amount]=asc", "order[dateDue]=up"])
async def test_an_unknown_field_or_direction_is_a_400(query: str) -> None:
    with pytest.raises(ApiError) as refused:
        await _read(INVOICES, query)
    assert refused.value.status == 400


async def test_a_list_of_fixed_order_reads_no_order_parameter() -> None:
    fixed = Sorting(then=((DATE, True), (REFERENCE, False)))
    assert await _read(fixed, "order[anything]=sideways") == [(DATE, True), (REFERENCE, False)]


def test_either_spelling_of_a_list_parameter_counts_once_in_the_order_given() -> None:
    assert either(["b", "a"], ["a", "c"]) == ("b", "a", "c")
    assert either(None, None) == ()


def test_each_word_is_searched_with_like_wildcards_escaped() -> None:
    conditions = words(Service.search_text, "50% off_peak")
    assert len(conditions) == 2
    compiled = select(Service.id).where(*conditions).compile(dialect=sqlite.dialect())
    assert list(compiled.params.values()) == ["%50/%%", "%off/_peak%"]
    assert "ESCAPE '/'" in str(compiled)


def test_a_list_by_company_needs_a_company_scope() -> None:
    with pytest.raises(TypeError):
        ListOf(Invoice, INVOICES, staff_only, by_company=True)
    ListOf(Invoice, INVOICES, companies(Invoice.company_id), by_company=True)
