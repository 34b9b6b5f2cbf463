"""Integration API: services with endpoints, milestones and attributes; their documents and
order form uploaded as files."""

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session, select

from portal.provider.platform.db import preload
from portal.provider.platform.models import (
    Endpoint,
    Service,
    ServiceDocument,
    User,
    UserAccessLimit,
    UserServiceGrant,
)
from portal.settings import get_settings
from tests.provider.conftest import SignIn, World
from tests.provider.integration_helpers import (
    PDF,
    add_service_type,
    counts,
    put,
    token_headers,
    violations,
)

SERVICE = {
    "reference": "PB-IPT-1",
    "company": "C-ACME",
    "type": "ip_transit",
    "status": "under_construction",
    "dateStart": "2026-03-14",
    "clientReferences": ["ACME-PAR-001"],
    "deliveryManager": "admin@patchbay.test",
    "order": {"reference": "ORD-1"},
    "endpointA": {"name": "Equinix PA2", "city": "Saint-Denis", "country": "France"},
    "endpointB": {"reference": "EP-TH2", "name": "Telehouse 2", "city": "Paris"},
    "milestones": [
        {"name": "received", "date": "2026-01-10", "completed": True},
        {"name": "in_study", "completed": False},
    ],
    "attributes": [
        {"name": "rate", "value": "10G", "groupName": "port"},
        {"name": "protocol", "value": "ethernet"},
    ],
}


@pytest.fixture(scope="module", autouse=True)
def catalogue(world: World) -> None:
    add_service_type(world.engine)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """Uploaded files land in a temporary data directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(get_settings(), "data_dir", tmp_path)
        yield tmp_path


@pytest.fixture
async def headers(client: httpx.AsyncClient, world: World) -> dict[str, str]:
    headers = token_headers(world)
    await counts(client, "companies", [{"reference": "C-ACME", "name": "Acme Networks"}], headers)
    return headers


def inside(directory: Path, relative: str) -> bool:
    return (directory / relative).resolve().is_relative_to(directory.resolve())


def service(world: World, reference: str) -> Service:
    with Session(world.engine) as session:
        statement = select(Service).where(Service.reference == reference)
        options = preload(
            Service.milestones,
            Service.attributes,
            Service.endpoint_a,
            Service.endpoint_b,
            Service.documents,
        )
        return session.exec(statement.options(*options)).one()


async def test_a_service_is_created_updated_and_replayed(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    assert await counts(client, "services", [SERVICE], headers) == (1, 0, 0)
    stored = service(world, "PB-IPT-1")
    assert stored.company_id == world.companies["acme"]
    assert stored.status == "under_construction"
    assert stored.client_references == ["ACME-PAR-001"]
    assert stored.delivery_manager_id == world.users["admin"]
    assert stored.order_reference == "ORD-1"
    assert stored.endpoint_a is not None
    assert stored.endpoint_a.city == "Saint-Denis"
    assert stored.endpoint_b is not None
    assert stored.endpoint_b.reference == "EP-TH2"
    assert [(m.name, m.completed) for m in stored.milestones] == [
        ("received", True),
        ("in_study", False),
    ]
    assert sorted((a.name, a.value) for a in stored.attributes) == [
        ("protocol", "ethernet"),
        ("rate", "10G"),
    ]
    assert "equinix pa2" in stored.search_text

    assert await counts(client, "services", [SERVICE], headers) == (0, 0, 1)

    changed = {
        **SERVICE,
        "status": "active",
        "endpointA": {"name": "Equinix PA3", "city": "Saint-Denis", "country": "France"},
        "milestones": [*SERVICE["milestones"], {"name": "operational", "completed": True}],
    }
    assert await counts(client, "services", [changed], headers) == (0, 1, 0)
    updated = service(world, "PB-IPT-1")
    assert updated.status == "active"
    assert updated.endpoint_a is not None
    assert updated.endpoint_a.name == "Equinix PA3"
    # The service's own endpoint was updated in place, not duplicated.
    assert updated.endpoint_a_id == stored.endpoint_a_id
    assert [m.name for m in updated.milestones][-1] == "operational"
    assert "equinix pa3" in updated.search_text


async def test_fields_left_out_keep_their_value(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    await counts(client, "services", [SERVICE], headers)
    minimal = {key: SERVICE[key] for key in ("reference", "company", "type", "status")}
    assert await counts(client, "services", [minimal], headers) == (0, 0, 1)
    stored = service(world, "PB-IPT-1")
    assert stored.client_references == ["ACME-PAR-001"]
    assert len(stored.attributes) == 2


async def test_a_shared_endpoint_is_one_row(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    second = {**SERVICE, "reference": "PB-IPT-2", "endpointA": None}
    await counts(client, "services", [SERVICE, second], headers)
    with Session(world.engine) as session:
        shared = session.exec(select(Endpoint).where(Endpoint.reference == "EP-TH2")).all()
    assert len(shared) == 1
    assert service(world, "PB-IPT-2").endpoint_b_id == shared[0].id
    assert service(world, "PB-IPT-2").endpoint_a_id is None


async def test_service_violations_name_the_line_and_field(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    body = [
        {**SERVICE, "reference": "PB-OK"},
        {**SERVICE, "reference": "PB-BAD-1", "type": "teleportation"},
        {**SERVICE, "reference": "PB-BAD-2", "status": "sleeping", "company": "C-404"},
        {**SERVICE, "reference": "PB-BAD-3", "milestones": [{"name": "received", "date": "x"}]},
        {**SERVICE, "reference": "PB-BAD-4", "deliveryManager": "nobody@patchbay.test"},
    ]
    assert violations(await put(client, "services", body, headers)) == [
        "[1].type",
        "[2].status",  # an object with invalid fields has its references checked once fixed
        "[3].milestones[0].date",
        "[4].deliveryManager",
    ]
    with Session(world.engine) as session:
        assert session.exec(select(Service).where(Service.reference == "PB-OK")).first() is None


async def test_documents_and_the_order_form_are_uploaded(
    client: httpx.AsyncClient,
    world: World,
    headers: dict[str, str],
    data_dir: Path,
    sign_in: SignIn,
) -> None:
    await counts(client, "services", [SERVICE], headers)
    url = "/api/integration/services/PB-IPT-1/documents"
    files = {"file": ("Handover PB-IPT-1 é.pdf", PDF, "application/pdf")}
    response = await client.put(url, data={"kind": "handover"}, files=files, headers=headers)
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "created"
    again = await client.put(url, data={"kind": "handover"}, files=files, headers=headers)
    assert (again.status_code, again.json()["status"]) == (200, "unchanged")
    replaced = {"file": ("Handover PB-IPT-1 é.pdf", PDF + b"%v2\n", "application/pdf")}
    response = await client.put(url, data={"kind": "handover"}, files=replaced, headers=headers)
    assert (response.status_code, response.json()["status"]) == (200, "updated")

    documents = service(world, "PB-IPT-1").documents
    assert [(d.kind, d.name) for d in documents] == [("handover", "Handover PB-IPT-1 é.pdf")]
    path = data_dir / documents[0].file_path
    assert path.read_bytes() == PDF + b"%v2\n"
    assert path.is_relative_to(data_dir / "documents" / "integration")
    assert path.name.isascii()
    assert " " not in path.name

    order = await client.put(
        "/api/integration/services/PB-IPT-1/order_pdf",
        files={"file": ("order.pdf", PDF, "application/pdf")},
        headers=headers,
    )
    assert order.status_code == 201, order.text
    stored = service(world, "PB-IPT-1")
    assert stored.order_pdf_name == "order.pdf"
    assert (data_dir / (stored.order_pdf_path or "")).read_bytes() == PDF

    # The portal's read routes serve what was uploaded (to a person: a token does not read).
    await sign_in("admin")
    document_url = f"/api/services/{stored.id}/documents/{documents[0].id}"
    download = await client.get(document_url)
    assert download.status_code == 200, download.text
    assert download.content == PDF + b"%v2\n"
    assert "attachment" in download.headers["content-disposition"]
    order_pdf = await client.get(f"/api/services/{stored.id}/order_pdf")
    assert order_pdf.content == PDF


async def test_uploads_are_checked(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    await counts(client, "services", [SERVICE], headers)
    url = "/api/integration/services/PB-IPT-1/documents"
    not_pdf = {"file": ("evil.pdf", b"<script>alert(1)</script>", "application/pdf")}
    response = await client.put(url, data={"kind": "loa"}, files=not_pdf, headers=headers)
    assert violations(response) == ["file"]
    empty = {"file": ("empty.pdf", b"", "application/pdf")}
    response = await client.put(url, data={"kind": "loa"}, files=empty, headers=headers)
    assert violations(response) == ["file"]
    files = {"file": ("a.pdf", PDF, "application/pdf")}
    response = await client.put(url, data={"kind": "contract"}, files=files, headers=headers)
    assert response.status_code == 422
    unknown = "/api/integration/services/PB-NOPE/documents"
    response = await client.put(unknown, data={"kind": "loa"}, files=files, headers=headers)
    assert response.status_code == 404
    with Session(world.engine) as session:
        loas = select(ServiceDocument).where(ServiceDocument.kind == "loa")
        assert session.exec(loas).all() == []


async def test_a_path_in_the_file_name_stays_inside_the_data_directory(
    client: httpx.AsyncClient, world: World, headers: dict[str, str], data_dir: Path
) -> None:
    await counts(client, "services", [SERVICE], headers)
    files = {"file": ("../../../etc/passwd.pdf", PDF, "application/pdf")}
    response = await client.put(
        "/api/integration/services/PB-IPT-1/documents",
        data={"kind": "loa"},
        files=files,
        headers=headers,
    )
    assert response.status_code == 201, response.text
    document = next(d for d in service(world, "PB-IPT-1").documents if d.kind == "loa")
    assert document.name == "passwd.pdf"
    assert inside(data_dir, document.file_path)
    assert ".." not in document.file_path


async def test_a_service_moved_to_another_company_leaves_the_sets_of_the_one_it_left(
    client: httpx.AsyncClient, world: World, headers: dict[str, str]
) -> None:
    await counts(client, "companies", [{"reference": "C-GLOBEX", "name": "Globex"}], headers)
    await counts(client, "services", [SERVICE, {**SERVICE, "reference": "PB-IPT-2"}], headers)
    moving, staying = service(world, "PB-IPT-1"), service(world, "PB-IPT-2")
    with Session(world.engine) as session:
        limited = User(
            firstname="Lena",
            lastname="Limited",
            email="lena@acme.test",
            company_id=moving.company_id,
            password_hash=world.password_hash,
        )
        session.add(limited)
        session.flush()
        session.add(UserAccessLimit(user_id=limited.id, company_id=moving.company_id))
        session.add_all(
            UserServiceGrant(user_id=limited.id, service_id=kept.id, company_id=kept.company_id)
            for kept in (moving, staying)
        )
        session.commit()
        limited_id = limited.id
    moved = {**SERVICE, "company": "C-GLOBEX"}
    assert await counts(client, "services", [moved], headers) == (0, 1, 0)
    with Session(world.engine) as session:
        grants = session.exec(select(UserServiceGrant.service_id)).all()
        # Each grant names a service of the company it was given in: what a limited user's
        # count of their services is read from.
        assert grants == [staying.id]
        assert session.get(UserAccessLimit, (limited_id, moving.company_id)) is not None
