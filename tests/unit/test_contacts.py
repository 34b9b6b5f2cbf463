"""The contacts page's cards (spec 2, Contacts) from the provider's answer: the sales contacts
with the companies they serve, then managers and assistants, each person once, loops ending."""

from typing import Any

import httpx

from portal.client.models import Company
from portal.client.resources.companies import IDS_PER_CALL
from portal.pages.contacts.models import contacts_of, tel_href
from tests.unit.test_client_requests import recording_client


def _person(key: str, manager: Any = None, assistants: tuple[Any, ...] = ()) -> dict[str, Any]:
    return {
        "@id": f"/api/users/{key}",
        "id": key,
        "job": "sales_assistant",
        "fullName": key.capitalize(),
        "officePhone": "+33 1 99 00 11 00",
        "mobilePhone": None,
        "email": f"{key}@patchbay.test",
        "manager": manager,
        "assistants": list(assistants),
    }


def _iri(key: str) -> str:
    return f"/api/users/{key}"


def _companies() -> list[Company]:
    # Acme: Julien (manager Olivier, whose manager Hugo has Nathalie as assistant, managed by
    # Hugo: a loop) and Thomas (manager Julien, given as an IRI). Globex: Julien again, written
    # in full for that company too, and Priya whose manager Olivier is an IRI to Acme's tree.
    def olivier() -> dict[str, Any]:
        return _person("olivier", _person("hugo", None, (_person("nathalie", _iri("hugo")),)))

    acme = {
        "@id": "/api/companies/acme",
        "name": "Acme Networks",
        "sales": [
            _person("julien", olivier(), (_person("camille"),)),
            _person("thomas", _iri("julien"), (_iri("camille"),)),
        ],
    }
    globex = {
        "@id": "/api/companies/globex",
        "name": "Globex",
        "sales": [
            _person("julien", olivier(), (_person("camille"),)),
            _person("priya", _iri("olivier")),
        ],
    }
    return [Company.model_validate(acme), Company.model_validate(globex)]


def test_sales_contacts_come_first_with_the_companies_they_serve() -> None:
    contacts = contacts_of(_companies())
    assert [(c.id, c.companies) for c in contacts.sales] == [
        ("julien", ["Acme Networks", "Globex"]),
        ("thomas", ["Acme Networks"]),
        ("priya", ["Globex"]),
    ]


def test_managers_and_assistants_follow_once_each_breadth_first() -> None:
    contacts = contacts_of(_companies())
    assert [c.id for c in contacts.further] == ["olivier", "camille", "hugo", "nathalie"]
    assert all(c.companies == [] for c in contacts.further)


def test_a_card_holds_what_the_spec_shows() -> None:
    julien = contacts_of(_companies()).sales[0]
    assert julien.full_name == "Julien"
    assert julien.job == "sales_assistant"
    assert julien.email == "julien@patchbay.test"
    assert julien.office_phone_href == "tel:+33199001100"
    assert julien.mobile_phone == julien.mobile_phone_href == ""


def test_no_company_gives_no_contact() -> None:
    contacts = contacts_of([])
    assert contacts.sales == contacts.further == []


def test_tel_links_keep_only_digits_and_the_plus() -> None:
    assert tel_href("+44 (0)20 7946.0110") == "tel:+4402079460110"
    assert tel_href("") == tel_href(None) == tel_href(" - ") == ""


async def test_the_chosen_companies_are_read_in_calls_of_at_most_a_page() -> None:
    requests: list[httpx.Request] = []
    async with recording_client(requests) as client:
        await client.companies.with_sales([f"c{i}" for i in range(IDS_PER_CALL + 5)])
        assert await client.companies.with_sales([]) == []

    assert len(requests) == 2
    first, second = (request.url.params for request in requests)
    assert first.get_list("uuid[]") == [f"c{i}" for i in range(IDS_PER_CALL)]
    assert first["itemsPerPage"] == str(IDS_PER_CALL)
    assert second.get_list("uuid[]") == [f"c{i}" for i in range(IDS_PER_CALL, IDS_PER_CALL + 5)]
    assert second["itemsPerPage"] == "5"
    assert all(r.url.params.get_list("includes[]") == ["sales"] for r in requests)
