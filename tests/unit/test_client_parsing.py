"""Reading the provider's JSON: Hydra collections in both spellings, users, companies, IRIs."""

import httpx
import pytest

from portal.client import Company, InvalidResponse, Page, ProviderClient, User, uuid_from_iri

BASE_URL = "http://provider.test/provider"
ACME = "5e1f7d0c-3b6a-4f0e-8f3c-1a2b3c4d5e6f"
GLOBEX = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
ALICE = "0b7c6a52-8f0e-4d7e-9a51-3d8f1c2b9e10"


def alice(company: object) -> dict[str, object]:
    return {
        "@id": f"/api/users/{ALICE}",
        "@type": "User",
        "id": ALICE,
        "firstname": "Alice",
        "lastname": "Martin",
        "email": "alice@acme-networks.test",
        "phoneNumber": "+33 1 23 45 67 89",
        "job": None,
        "roles": ["ROLE_MANAGE_USERS", "ROLE_ACCESS_INVOICES"],
        "company": company,
        "auxiliaryCompanies": [f"/api/companies/{GLOBEX}"],
        "hasAcceptedTerms": True,
        "ldap": False,
        "createdAt": "2026-01-01T00:00:00+00:00",
    }


def answering(body: object) -> ProviderClient:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=body))
    return ProviderClient(BASE_URL, transport=transport)


def test_user_with_an_embedded_company() -> None:
    embedded = {"@id": f"/api/companies/{ACME}", "@type": "Company", "id": ACME, "name": "Acme"}

    user = User.model_validate(alice(embedded))

    assert (user.iri, user.id) == (f"/api/users/{ALICE}", ALICE)
    assert user.full_name == "Alice Martin"
    assert user.phone_number == "+33 1 23 45 67 89"
    assert user.roles == ["ROLE_MANAGE_USERS", "ROLE_ACCESS_INVOICES"]
    assert user.has_accepted_terms
    assert not user.ldap
    assert user.company == Company(iri=f"/api/companies/{ACME}", id=ACME, name="Acme")


def test_user_with_a_company_iri_gets_a_company_with_only_iri_and_id() -> None:
    user = User.model_validate(alice(f"/api/companies/{ACME}"))

    assert user.company == Company(iri=f"/api/companies/{ACME}", id=ACME)
    assert user.company.name is None
    assert [company.id for company in user.companies] == [ACME, GLOBEX]


def test_user_without_company() -> None:
    user = User.model_validate(alice(None))

    assert user.company is None
    assert [company.id for company in user.companies] == [GLOBEX]


def test_models_accept_snake_case_names_too() -> None:
    user = User(firstname="Bob", lastname="", phone_number="0102", has_accepted_terms=False)

    assert user.full_name == "Bob"
    assert user.model_dump(by_alias=True)["phoneNumber"] == "0102"


def test_company_sales_contacts_are_recursive_and_named() -> None:
    company = Company.model_validate(
        {
            "@id": f"/api/companies/{ACME}",
            "name": "Acme Networks",
            "sales": [
                {
                    "@id": "/api/users/s1",
                    "job": "Business Engineer",
                    "firstname": "Paul",
                    "lastname": "Durand",
                    "officePhone": "+33 1 00 00 00 01",
                    "manager": {"@id": "/api/users/s2", "fullName": "Marie Leroy"},
                    "assistants": ["/api/users/s3"],
                }
            ],
        }
    )

    (contact,) = company.sales
    assert company.id == ACME
    assert (contact.id, contact.full_name, contact.office_phone) == (
        "s1",
        "Paul Durand",
        "+33 1 00 00 00 01",
    )
    assert contact.manager is not None
    assert contact.manager.full_name == "Marie Leroy"
    assert [assistant.id for assistant in contact.assistants] == ["s3"]


def test_an_id_that_is_an_iri_is_split_into_iri_and_uuid() -> None:
    company = Company.model_validate({"id": f"/api/companies/{ACME}"})

    assert (company.iri, company.id) == (f"/api/companies/{ACME}", ACME)


@pytest.mark.parametrize(
    ("iri", "uuid"),
    [
        ("/api/services/abc", "abc"),
        ("/api/services/abc/", "abc"),
        ("http://provider.test/provider/api/users/u1?includes[]=company", "u1"),
        ("abc", "abc"),
    ],
)
def test_uuid_from_iri(iri: str, uuid: str) -> None:
    assert uuid_from_iri(iri) == uuid


@pytest.mark.parametrize(
    "collection",
    [
        {
            "@type": "hydra:Collection",
            "hydra:member": [{"@id": "/api/companies/a"}, {"@id": "/api/companies/b"}],
            "hydra:totalItems": 23,
            "hydra:view": {"@id": "/api/companies?page=1"},
        },
        {"items": [{"@id": "/api/companies/a"}, {"@id": "/api/companies/b"}], "totalItems": 23},
    ],
    ids=["hydra", "items"],
)
async def test_collections_are_read_in_both_spellings(collection: dict[str, object]) -> None:
    async with answering(collection) as client:
        page = await client.companies.list(page=2, items_per_page=10)

    assert [company.id for company in page.items] == ["a", "b"]
    assert (page.total, page.page, page.items_per_page, page.page_count) == (23, 2, 10, 3)


async def test_users_list_reads_users_with_embedded_companies() -> None:
    collection = {
        "hydra:member": [alice({"@id": f"/api/companies/{ACME}", "name": "Acme"})],
        "hydra:totalItems": 1,
    }
    async with answering(collection) as client:
        page = await client.users.list(includes=("company",))

    (user,) = page.items
    assert isinstance(user, User)
    assert user.company is not None
    assert user.company.name == "Acme"


def test_page_count_of_an_empty_collection_is_one() -> None:
    page = Page[User].model_validate({"hydra:member": [], "hydra:totalItems": 0})

    assert (page.items, page.total, page.page_count) == ([], 0, 1)


def test_a_bare_list_is_a_collection_of_its_length() -> None:
    page = Page[Company].model_validate([{"@id": "/api/companies/a"}])

    assert (page.total, page.items[0].id) == (1, "a")


@pytest.mark.parametrize(
    "body",
    [{"unexpected": True}, {"hydra:member": "nope", "hydra:totalItems": 1}],
)
async def test_a_collection_of_the_wrong_shape_is_an_invalid_response(body: object) -> None:
    async with answering(body) as client:
        with pytest.raises(InvalidResponse):
            await client.users.list()


async def test_a_success_that_is_not_json_is_an_invalid_response() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text="<html>"))
    async with ProviderClient(BASE_URL, transport=transport) as client:
        with pytest.raises(InvalidResponse) as caught:
            await client.users.get(ALICE)

    assert (caught.value.code, caught.value.key) == (502, "502")
