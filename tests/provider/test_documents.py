"""Documents (spec 2 Service detail, 6 and 7): handovers, LOAs, order forms and termination
documents are downloads that check who asks, streamed from the data directory."""

import uuid

import httpx
import pytest

from tests.provider.conftest import SignIn
from tests.provider.services_data import PDF, Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]


def _document(catalogue: Catalogue, reference: str, key: str) -> str:
    return f"/api/services/{catalogue.services[reference]}/documents/{catalogue.documents[key]}"


def _order(catalogue: Catalogue, reference: str) -> str:
    return f"/api/services/{catalogue.services[reference]}/order_pdf"


def _termination(catalogue: Catalogue, key: str) -> str:
    return f"/api/termination_documents/{catalogue.documents[f'termination-{key}']}/file"


def _assert_pdf_download(response: httpx.Response, filename: str, body: bytes) -> None:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == f'attachment; filename="{filename}"'
    assert response.headers["cache-control"] == "private, no-store"
    assert response.content == body


async def test_documents_need_a_session(client: httpx.AsyncClient, catalogue: Catalogue) -> None:
    for path in (
        _document(catalogue, "PB-ETH-1001", "handover"),
        _order(catalogue, "PB-ETH-1001"),
        _termination(catalogue, "acme"),
        "/api/termination_documents",
        f"/api/termination_documents/{catalogue.documents['termination-acme']}",
    ):
        assert (await client.get(path)).status_code == 401, path


async def test_a_handover_downloads_as_an_attachment(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    response = await client.get(_document(catalogue, "PB-ETH-1001", "handover"))
    _assert_pdf_download(response, "handover PB-ETH-1001.pdf", PDF + b"handover.pdf")
    loa = await client.get(_document(catalogue, "PB-ETH-1001", "loa"))
    _assert_pdf_download(loa, "LOA.pdf", PDF + b"loa.pdf")


@pytest.mark.parametrize(
    ("reader", "reference", "key"),
    [
        ("alice", "PB-ETH-3001", "foreign"),  # another company's service and document
        ("alice", "PB-ETH-1001", "foreign"),  # a foreign document through one's own service
        ("claire", "PB-ETH-1001", "handover"),
        ("claire", "PB-ETH-3001", "handover"),  # one's own service, another's document
    ],
)
async def test_another_companys_document_is_not_found(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    reader: str,
    reference: str,
    key: str,
) -> None:
    await sign_in(reader)
    assert (await client.get(_document(catalogue, reference, key))).status_code == 404


async def test_a_path_leading_out_of_the_data_directory_is_refused(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    response = await client.get(_document(catalogue, "PB-ETH-1001", "escaping"))
    assert response.status_code == 404
    assert b"outside" not in response.content


async def test_a_missing_file_is_not_found(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    path = catalogue.data_dir / "documents" / "loa.pdf"
    saved = path.read_bytes()
    path.unlink()
    try:
        assert (await client.get(_document(catalogue, "PB-ETH-1001", "loa"))).status_code == 404
    finally:
        path.write_bytes(saved)


@pytest.mark.parametrize(
    ("reader", "status"),
    [("alice", 200), ("support", 200), ("admin", 200), ("bob", 403), ("claire", 403)],
)
async def test_the_order_form_needs_access_to_order_pdf(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, reader: str, status: int
) -> None:
    await sign_in(reader)
    response = await client.get(
        _order(catalogue, "PB-ETH-1001" if reader != "claire" else "PB-ETH-3001")
    )
    assert response.status_code == status
    if status == 200:
        _assert_pdf_download(response, "BC-PB-ETH-1001.pdf", PDF + b"order.pdf")


async def test_another_companys_order_form_is_not_found(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("gina")  # Globex, with access to order forms
    assert (await client.get(_order(catalogue, "PB-ETH-1001"))).status_code == 404
    assert (await client.get(_order(catalogue, "PB-ETH-3001"))).status_code == 200
    assert (await client.get(f"/api/services/{uuid.uuid4()}/order_pdf")).status_code == 404


# --- termination documents --------------------------------------------------------------------


async def _filenames(
    client: httpx.AsyncClient, catalogue: Catalogue, reference: str | None
) -> list[str]:
    params = {"termination.services.uuid": str(catalogue.services[reference])} if reference else {}
    response = await client.get("/api/termination_documents", params=params)
    assert response.status_code == 200, response.text
    return [member["filename"] for member in response.json()["hydra:member"]]


async def test_termination_documents_are_listed_for_an_ending_service(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    assert await _filenames(client, catalogue, "PB-DFB-1003") == ["termination-acme.pdf"]
    assert await _filenames(client, catalogue, "PB-COL-1004") == ["termination-acme.pdf"]
    # Not while the service is still active, even if a termination order exists.
    assert await _filenames(client, catalogue, "PB-ETH-1001") == []
    assert await _filenames(client, catalogue, None) == ["termination-acme.pdf"]
    response = await client.get(
        "/api/termination_documents",
        params={"termination.services.uuid": str(catalogue.services["PB-DFB-1003"])},
    )
    member = response.json()["hydra:member"][0]
    document_id = catalogue.documents["termination-acme"]
    assert member == {
        "@id": f"/api/termination_documents/{document_id}",
        "@type": "TerminationDocument",
        "id": str(document_id),
        "filename": "termination-acme.pdf",
        "downloadUrl": f"/api/termination_documents/{document_id}/file",
    }
    download = await client.get(member["downloadUrl"])
    _assert_pdf_download(download, "termination-acme.pdf", PDF + b"termination.pdf")
    assert (await client.get(member["@id"])).json()["filename"] == "termination-acme.pdf"


async def test_another_companys_termination_documents_are_not_found(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("alice")
    assert await _filenames(client, catalogue, "PB-DFB-3002") == []
    foreign = catalogue.documents["termination-globex"]
    assert (await client.get(f"/api/termination_documents/{foreign}")).status_code == 404
    assert (await client.get(_termination(catalogue, "globex"))).status_code == 404
    assert (await client.get(_termination(catalogue, "active"))).status_code == 404
    await sign_in("claire")
    assert (await client.get(_termination(catalogue, "globex"))).status_code == 200
    assert (await client.get(_termination(catalogue, "acme"))).status_code == 404


async def test_staff_read_every_termination_document(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("support")
    assert await _filenames(client, catalogue, None) == [
        "termination-acme.pdf",
        "termination-globex.pdf",
    ]
