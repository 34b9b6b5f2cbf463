"""The screen kit's pure parts: filters declared once (provider and URL spelling), a list's
address read and written, the item id of a route, and every filter a view names declared."""

import ast
import re
from datetime import date
from pathlib import Path
from typing import Annotated, ClassVar, get_args
from urllib.parse import parse_qsl, urlsplit

import pytest
import reflex as rx
from pydantic import ValidationError

import portal.portal  # noqa: F401  (adds the pages, as the running app does)
from portal.client.filters import Filters, Param
from portal.client.models import InvoiceFilters, ServiceFilters, UserFilters
from portal.components.cards_or_table import CARDS
from portal.components.invoices.query import INVOICES_URL
from portal.components.paging import Paging
from portal.components.services.query import SERVICES_URL
from portal.components.users.query import USERS_URL
from portal.list_query import ListUrl
from portal.pages.services.state import ServicesState
from portal.pages.tickets.state import TicketsState
from portal.state.item_page import route_id
from portal.state.lists import PAGING_FIELDS, ListState

ROOT = Path(__file__).resolve().parents[2]
FILTER_EVENTS = {"set_filter", "toggle_filter", "clear_filter"}


def test_filters_go_to_the_provider_trimmed_and_without_repeats() -> None:
    filters = ServiceFilters(search="  lyon ", statuses=["active", "active"], type_uuids=[])
    assert filters.to_provider() == {"search": "lyon", "status": ["active"], "type.uuid": []}
    assert filters.same_query(ServiceFilters(search="lyon", statuses=["active"]))
    assert not filters.same_query(ServiceFilters(search="lyon"))
    assert filters.active
    assert not ServiceFilters(search="   ").active


def test_a_changed_filter_is_validated_as_declared() -> None:
    filters = ServiceFilters().with_value("statuses", ["terminated"])
    assert filters.statuses == ["terminated"]
    with pytest.raises(ValidationError):
        ServiceFilters().with_value("statuses", ["deleted"])
    with pytest.raises(KeyError):
        ServiceFilters().with_value("status", ["active"])


def test_a_range_typed_backwards_keeps_its_earlier_day_first() -> None:
    until = InvoiceFilters().with_value("due_before", "2026-03-01")
    swapped = until.with_value("due_after", "2026-05-31")
    assert (swapped.due_after, swapped.due_before) == (date(2026, 3, 1), date(2026, 5, 31))
    cleared = swapped.with_value("due_after", "")
    assert (cleared.due_after, cleared.due_before) == (None, date(2026, 5, 31))


def test_a_range_backwards_in_a_shared_url_is_read_as_if_typed() -> None:
    """A link written by hand (or by another tool) with the range's ends swapped lists what the
    same days typed in the filters list, not nothing."""
    filters, _paging = INVOICES_URL.read(
        [("dateDueAfter", "2026-05-31"), ("dateDueBefore", "2026-03-01")]
    )
    assert (filters.due_after, filters.due_before) == (date(2026, 3, 1), date(2026, 5, 31))
    typed = InvoiceFilters().with_value("due_after", "2026-05-31")
    assert filters == typed.with_value("due_before", "2026-03-01")


def test_a_filter_without_its_parameter_is_refused() -> None:
    class Undeclared(Filters):
        named: Annotated[str, Param("named")] = ""
        unnamed: str = ""

    with pytest.raises(TypeError, match="unnamed"):
        Undeclared.params()


def test_the_url_may_spell_a_filter_otherwise_than_the_provider() -> None:
    filters = InvoiceFilters(is_paid=False, reference="INV", due_after=date(2026, 1, 31))
    paging = Paging(2, 25, "dateDue", "asc")
    url = INVOICES_URL.url("/invoices", filters, paging)
    assert url == (
        "/invoices?isPaid=0&reference=INV&dateDueAfter=2026-01-31"
        "&page=2&itemsPerPage=25&order[dateDue]=asc"
    )
    assert INVOICES_URL.read(parse_qsl(urlsplit(url).query)) == (filters, paging)
    assert filters.to_provider()["dateDue[after]"] == date(2026, 1, 31)


def test_what_the_url_cannot_hold_is_dropped() -> None:
    filters, paging = INVOICES_URL.read(
        [("dateDueAfter", "31/01/2026"), ("isPaid", "maybe"), ("type", "receipt"), ("page", "2")]
    )
    assert filters == InvoiceFilters()
    assert paging.page == 2


def test_the_services_url_reads_and_writes_show_advanced_search() -> None:
    """Spec 2: the services list's query holds showAdvancedSearch (boolean) beside its filters;
    it is written when on and never reaches the provider."""
    flag = "showAdvancedSearch"
    for on in ("1", "true", " True "):
        assert SERVICES_URL.read_flags([(flag, on)]) == [flag]
    for off in ("0", "false", "maybe", ""):
        assert SERVICES_URL.read_flags([(flag, off)]) == []
    assert SERVICES_URL.read_flags([("showEverything", "1")]) == []
    filters = ServiceFilters(statuses=["active"])
    assert SERVICES_URL.url("/services", filters, flags=[flag]) == (
        "/services?status=active&showAdvancedSearch=1"
    )
    assert SERVICES_URL.url("/services", filters) == "/services?status=active"
    assert flag not in filters.to_provider()


@pytest.mark.parametrize(
    ("path", "expected"),
    [("/services/abc", "abc"), ("/users/0b7c6a52/", "0b7c6a52"), ("/services/a%20b", "a b")],
)
def test_an_item_page_reads_its_id_from_the_last_segment(path: str, expected: str) -> None:
    assert route_id(path) == expected


def _list_states() -> dict[str, type[ListState]]:
    found: dict[str, type[ListState]] = {}
    pending: list[type] = [ListState]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not cls._mixin:
            found[cls.__name__] = cls
    return found


def test_a_lists_address_and_rows_have_their_fixed_homes() -> None:
    """docs/adding-a-screen.md: a list's ``ListUrl`` is defined in
    ``portal/components/<resource>/query.py`` and its rows in ``…/<resource>/models.py``, so that
    a list page is its three files and another screen (a tile's link, the dashboard) finds what
    it shares where every list keeps it."""
    defined = [
        source.relative_to(ROOT).as_posix()
        for source in (ROOT / "portal").rglob("*.py")
        for node in ast.walk(ast.parse(source.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ListUrl"
    ]
    assert defined, "the check found no ListUrl to look at"
    misplaced = [
        path for path in defined if not re.fullmatch(r"portal/components/\w+/query\.py", path)
    ]
    assert misplaced == []
    for name, state in _list_states().items():
        (row,) = get_args(state.__fields__["rows"].outer_type_)
        assert re.fullmatch(r"portal\.components\.\w+\.models", row.__module__), name


def test_every_list_opens_on_its_urls_paging_and_filters() -> None:
    """Issue 48, item 4: the page, size and sort fields are ``ListState``'s, defaulting to what
    the list's ``url`` opens on, not declared again by each list; its filters are the URL's."""
    states = _list_states()
    assert "LastTicketsState" in states, "the dashboard's five, whose URL is not the screen's"
    for name, state in states.items():
        fields = state.__fields__
        opening = Paging(*(fields[field].default_value() for field in PAGING_FIELDS))
        assert opening == state.url.paging, name
        assert type(fields["filters"].default_value()) is state.url.filters, name


def test_a_paging_field_a_list_declares_stays_as_declared() -> None:
    class TwentyFive(ListState, mixin=True):
        url: ClassVar[ListUrl[UserFilters]] = USERS_URL
        items_per_page: rx.Field[int] = rx.field(25)

    defaults = {name: TwentyFive.__fields__[name].default for name in PAGING_FIELDS}
    assert defaults == {
        "page": 1,
        "items_per_page": 25,
        "sort_field": "lastname",
        "sort_direction": "asc",
    }


def test_every_filter_a_view_names_is_declared() -> None:
    """A misspelt filter name would only fail when clicked; here it fails the build."""
    states = _list_states()
    named: list[tuple[str, str, str]] = []
    for source in (ROOT / "portal").rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in FILTER_EVENTS
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in states  # a kit helper's ``state`` is checked below
                and isinstance(node.args[0], ast.Constant)
            ):
                named.append((source.name, node.func.value.id, node.args[0].value))
            elif (
                isinstance(node.func, ast.Name)
                and node.func.id == "status_filter"
                and isinstance(node.args[0], ast.Name)
            ):
                named.append((source.name, node.args[0].id, "statuses"))
            elif (
                isinstance(node.func, ast.Name)
                and node.func.id in ("text_filter", "date_filter")
                and isinstance(node.args[0], ast.Name)
                and len(node.args) > 3
                and isinstance(node.args[3], ast.Constant)
            ):
                named.append((source.name, node.args[0].id, node.args[3].value))
    assert named, "the check found no filter event to look at"
    for source, state_name, field in named:
        filters_type = states[state_name].__fields__["filters"].type_
        assert field in filters_type.model_fields, f"{source}: {state_name} has no {field!r}"


def test_each_screen_keeps_its_cards_or_table_choice_under_its_own_name() -> None:
    """The names the browser already holds a choice under (spec 4, Browser storage): one for
    each screen, so a table chosen for the services leaves the tickets in cards."""
    stored = {
        state.__name__: state.__fields__["view_mode"].default
        for state in (ServicesState, TicketsState)
    }
    assert {name: storage.name for name, storage in stored.items()} == {
        "ServicesState": "patchbay.services.view",
        "TicketsState": "patchbay.tickets.view",
    }
    assert set(stored.values()) == {CARDS}
