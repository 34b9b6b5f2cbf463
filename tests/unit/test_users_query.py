"""The users list's URL query (spec 2: name, email, page, itemsPerPage, order[field]), the paging
it shares with every list, and the rows and labels the Users screens show."""

from urllib.parse import parse_qsl, urlsplit

import pytest

from portal.client import Company, User
from portal.client.models import UserFilters
from portal.components.jobs import JOB_LABELS
from portal.components.paging import Paging, page_window
from portal.components.roles import ROLE_LABELS
from portal.components.users.models import UserRow
from portal.components.users.query import USERS_URL
from portal.permissions import Role
from portal.provider.platform.models import Job


def test_a_bare_url_opens_the_first_page_of_ten_sorted_on_last_name() -> None:
    filters, paging = USERS_URL.read([])
    assert (filters, paging) == (UserFilters(name="", email=""), USERS_URL.paging)
    assert paging.order == {"lastname": "asc"}
    assert paging.items_per_page == 10
    assert USERS_URL.url("/users", filters, paging) == "/users"


def test_the_url_gives_filters_page_size_and_sort() -> None:
    filters, paging = USERS_URL.read(
        [
            ("name", "  alice "),
            ("email", "acme"),
            ("page", "3"),
            ("itemsPerPage", "25"),
            ("order[email]", "desc"),
        ]
    )
    assert filters.name == "alice"
    assert filters.email == "acme"
    assert paging == Paging(3, 25, "email", "desc")


@pytest.mark.parametrize(
    "params",
    [
        {"page": "0"},
        {"page": "-2"},
        {"page": "two"},
        {"page": "99999999999999999999"},
        {"itemsPerPage": "1000"},
        {"itemsPerPage": "12"},
        {"order[password]": "asc"},
        {"order[email]": "sideways"},
    ],
)
def test_a_hand_edited_url_falls_back_to_the_defaults(params: dict[str, str]) -> None:
    assert USERS_URL.read(list(params.items()))[1] == USERS_URL.paging


def test_only_what_differs_from_the_defaults_is_written() -> None:
    params = USERS_URL.params(UserFilters(name="Martin"), Paging(2, 10, "lastname", "asc"))
    assert params == [("name", "Martin"), ("page", "2")]
    url = USERS_URL.url("/users", UserFilters(email="a&b"), Paging(1, 25, "firstname", "asc"))
    assert url == "/users?email=a%26b&itemsPerPage=25&order[firstname]=asc"


def test_the_written_url_reads_back_the_same() -> None:
    filters, paging = UserFilters(name="Zoé", email="globex"), Paging(4, 25, "email", "desc")
    params = parse_qsl(urlsplit(USERS_URL.url("/users", filters, paging)).query)
    assert USERS_URL.read(params) == (filters, paging)


def test_sorting_flips_the_active_column_and_starts_another_ascending() -> None:
    paging = Paging(3, 25, "lastname", "asc")
    assert paging.sorted_by("lastname") == Paging(1, 25, "lastname", "desc")
    assert paging.sorted_by("lastname").sorted_by("lastname") == Paging(1, 25, "lastname", "asc")
    assert paging.sorted_by("email") == Paging(1, 25, "email", "asc")


@pytest.mark.parametrize(
    ("page", "page_count", "expected"),
    [
        (1, 1, [1]),
        (1, 4, [1, 2, 3, 4]),
        (1, 20, [1, 2, 3, 4, 5, 6, 7]),
        (10, 20, [7, 8, 9, 10, 11, 12, 13]),
        (20, 20, [14, 15, 16, 17, 18, 19, 20]),
        (19, 20, [14, 15, 16, 17, 18, 19, 20]),
    ],
)
def test_the_page_buttons_surround_the_current_page(
    page: int, page_count: int, expected: list[int]
) -> None:
    assert page_window(page, page_count) == expected


def test_a_row_holds_what_the_table_shows() -> None:
    user = User(
        id="0b7c6a52",
        firstname="Alice",
        lastname="Martin",
        email="alice@acme-networks.test",
        roles=["ROLE_MANAGE_USERS"],
        company=Company(id="acme", name="Acme Networks"),
        auxiliary_companies=[Company(id="benelux", name="Acme Networks Benelux"), Company(id="x")],
    )
    row = UserRow.of(user)
    assert row.path == "/users/0b7c6a52"
    assert row.full_name == "Alice Martin"
    assert row.company == "Acme Networks"
    assert row.auxiliary_companies == ["Acme Networks Benelux"]
    assert row.phone_number == ""
    assert UserRow.of(User(id="1")).company == ""


def test_every_role_and_job_has_a_label() -> None:
    assert set(ROLE_LABELS) == {str(role) for role in Role}
    assert set(JOB_LABELS) == {str(job) for job in Job}
