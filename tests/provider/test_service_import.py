"""Client references (spec 5, DESIGN 6): one service at a time, and the CSV import with its
type, delimiter and line rules; all lines or none."""

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import insert
from sqlmodel import Session, col, select

from portal.permissions import Role
from portal.provider.platform.models import AuditLog, Service, ServiceStatus
from portal.settings import get_settings
from tests.provider.accounts import impersonating
from tests.provider.conftest import SignIn, World
from tests.provider.services_data import Catalogue, catalogue, data_dir

__all__ = ["catalogue", "data_dir"]

IMPORT = "/api/services/client_reference/import"
UPDATE = "/api/services/client_reference"
SEMICOLON_ONLY = "Only CSV files with a semicolon (;) delimiter are accepted."
INVALID_FILE = "Only CSV files (.csv) are accepted."


def _client_references(world: World, reference: str) -> list[str]:
    with Session(world.engine) as session:
        service = session.exec(select(Service).where(Service.reference == reference)).one()
        return list(service.client_references)


async def _import(
    client: httpx.AsyncClient,
    content: bytes,
    filename: str = "references.csv",
    content_type: str = "text/csv",
) -> httpx.Response:
    return await client.post(IMPORT, files={"file": (filename, content, content_type)})


def _violations(response: httpx.Response) -> list[tuple[str, str]]:
    assert response.status_code == 422, response.text
    return [(item["propertyPath"], item["message"]) for item in response.json()["violations"]]


# --- who may -------------------------------------------------------------------------------------


async def test_client_references_need_a_session(
    client: httpx.AsyncClient, catalogue: Catalogue
) -> None:
    assert (await _import(client, b"reference;clientReferences\n")).status_code == 401
    body = {"reference": "PB-ETH-1001", "clientReferences": "A"}
    assert (await client.post(UPDATE, json=body)).status_code == 401
    assert (await client.get(f"{UPDATE}/download_csv")).status_code == 401


@pytest.mark.parametrize("reader", ["alice", "bob", "support", "claire"])
async def test_client_references_need_access_to_service_ref(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World, reader: str
) -> None:
    await sign_in(reader)
    content = b"reference;clientReferences\nPB-ETH-1001;HACKED\n"
    assert (await _import(client, content)).status_code == 403
    body = {"reference": "PB-ETH-1001", "clientReferences": "HACKED"}
    assert (await client.post(UPDATE, json=body)).status_code == 403
    assert _client_references(world, "PB-ETH-1001") == ["ACME-PAR-001", "PO-2024-0001"]


# --- one service -------------------------------------------------------------------------------


async def test_one_services_references_are_replaced_trimmed_and_deduplicated(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("rita")
    body = {"reference": " PB-DFB-1003 ", "clientReferences": " LIL-9 ,, Ordre n°5, LIL-9 , "}
    response = await client.post(UPDATE, json=body)
    assert response.status_code == 200, response.text
    assert response.json()["clientReferences"] == ["LIL-9", "Ordre n°5"]
    assert _client_references(world, "PB-DFB-1003") == ["LIL-9", "Ordre n°5"]
    # The search text follows: the new references are found, the old one no longer.
    found = await client.get("/api/services", params={"search": "ordre n°5"})
    assert [item["reference"] for item in found.json()["hydra:member"]] == ["PB-DFB-1003"]
    gone = await client.get("/api/services", params={"search": "ACME-LIL"})
    assert gone.json()["hydra:totalItems"] == 0
    cleared = await client.post(UPDATE, json={"reference": "PB-DFB-1003", "clientReferences": ""})
    assert cleared.json()["clientReferences"] == []


async def test_changes_made_while_impersonating_are_audited_with_the_impersonator(
    client: httpx.AsyncClient, catalogue: Catalogue, world: World
) -> None:
    impersonating(client, world, "admin", "rita")
    body = {"reference": "PB-DFB-1003", "clientReferences": "LIL-10"}
    assert (await client.post(UPDATE, json=body)).status_code == 200
    content = b"reference;clientReferences\nPB-DFB-1003;LIL-11\n"
    assert (await _import(client, content)).status_code == 200
    with Session(world.engine) as session:
        entries = session.exec(
            select(AuditLog)
            .where(col(AuditLog.action).startswith("service.client_references"))
            .where(col(AuditLog.actor_id) == world.users["rita"])
            .order_by(col(AuditLog.at))
        ).all()
    assert [(e.action, e.detail.get("impersonator_email")) for e in entries][-2:] == [
        ("service.client_references", world.email("admin")),
        ("service.client_references.import", world.email("admin")),
    ]


@pytest.mark.parametrize(
    ("reader", "reference"),
    [("rita", "PB-ETH-3001"), ("rita", "PB-IPT-2001"), ("gina", "PB-ETH-1001"), ("rita", "NOPE")],
)
async def test_another_companys_service_is_not_found(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, reader: str, reference: str
) -> None:
    await sign_in(reader)
    response = await client.post(UPDATE, json={"reference": reference, "clientReferences": "X"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"reference": "PB-ETH-1001", "clientReferences": "A" * 101}, "clientReferences"),
        (
            {"reference": "PB-ETH-1001", "clientReferences": ",".join(f"R{n}" for n in range(21))},
            "clientReferences",
        ),
        ({"reference": "", "clientReferences": "A"}, "reference"),
        ({"reference": "P" * 101, "clientReferences": "A"}, "reference"),
        ({"clientReferences": "A"}, "reference"),
    ],
)
async def test_a_bad_update_is_refused_with_violations(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    body: dict[str, str],
    path: str,
) -> None:
    await sign_in("admin")
    response = await client.post(UPDATE, json=body)
    assert [item[0] for item in _violations(response)] == [path]


# --- the CSV import ---------------------------------------------------------------------------


async def test_the_template_is_the_header_line(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    response = await client.get(f"{UPDATE}/download_csv")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="client-reference.csv"'
    assert response.content == "\ufeffreference;clientReferences\r\n".encode()


@pytest.mark.parametrize(
    "content",
    [
        b"reference;clientReferences\nPB-ETH-1001;A1, A2\nPB-WAV-1002;B1\n",
        b"reference;clientReferences\r\nPB-ETH-1001;A1, A2\r\nPB-WAV-1002;B1\r\n",  # Windows
        b"\xef\xbb\xbfreference;clientReferences\r\nPB-ETH-1001;A1,A2\r\n\r\nPB-WAV-1002;B1",  # BOM
        b'Reference;ClientReferences;type\nPB-ETH-1001;"A1, A2";ignored\nPB-WAV-1002;B1;\n',
    ],
)
async def test_a_good_file_replaces_the_references_of_every_line(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World, content: bytes
) -> None:
    await sign_in("rita")
    response = await _import(client, content)
    assert response.status_code == 200, response.text
    assert response.json() == {"imported": 2}
    assert _client_references(world, "PB-ETH-1001") == ["A1", "A2"]
    assert _client_references(world, "PB-WAV-1002") == ["B1"]
    found = await client.get("/api/services", params={"search": "b1"})
    assert [item["reference"] for item in found.json()["hydra:member"]] == ["PB-WAV-1002"]


async def test_a_windows_1252_file_from_excel_is_read(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("rita")
    content = "reference;clientReferences\r\nPB-COL-1004;Baie n°3 – Sèvres\r\n".encode("cp1252")
    assert (
        await _import(client, content, content_type="application/vnd.ms-excel")
    ).status_code == 200
    assert _client_references(world, "PB-COL-1004") == ["Baie n°3 – Sèvres"]


@pytest.mark.parametrize(
    ("filename", "content_type"),
    [
        ("references.txt", "text/csv"),
        ("references.csv", "application/pdf"),
        ("references", "text/plain"),
    ],
)
async def test_a_file_of_another_type_is_refused(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    filename: str,
    content_type: str,
) -> None:
    await sign_in("rita")
    response = await _import(
        client, b"reference;clientReferences\nPB-ETH-1001;X\n", filename, content_type
    )
    assert _violations(response) == [("file", INVALID_FILE)]


@pytest.mark.parametrize(
    "content_type",
    ["text/csv; charset=utf-8", "application/octet-stream", "application/vnd.ms-excel"],
)
async def test_the_types_browsers_give_csv_files_are_accepted(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, content_type: str
) -> None:
    await sign_in("rita")
    response = await _import(
        client, b"reference;clientReferences\nPB-ETH-1001;X\n", "R.CSV", content_type
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"reference,clientReferences\nPB-ETH-1001,X\n", SEMICOLON_ONLY),
        (b"reference\tclientReferences\nPB-ETH-1001\tX\n", SEMICOLON_ONLY),
        (b"", "The file is empty."),
        (b"\xef\xbb\xbf\r\n\r\n", "The file is empty."),
        (b"reference;clientReferences\r\n", "The file is empty."),
        (
            b"ref;refs\nPB-ETH-1001;X\n",
            "The first line must be the header reference;clientReferences.",
        ),
        (b"reference;clientReferences\nPB\x00;X\n", "The file is not a valid CSV file."),
    ],
)
async def test_a_file_that_cannot_be_read_is_refused_whole(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, content: bytes, message: str
) -> None:
    await sign_in("rita")
    assert _violations(await _import(client, content)) == [("file", message)]


async def test_wrong_lines_are_reported_and_nothing_is_written(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("rita")
    before = _client_references(world, "PB-ETH-1001")
    lines = [
        "reference;clientReferences",
        "PB-ETH-1001;NEW-1",  # line 2: right, but not written since others are wrong
        "PB-NOPE-1;X",  # unknown
        "PB-ETH-3001;X",  # another company's
        ";X",  # no reference
        "PB-WAV-1002;Y",
        "PB-WAV-1002;Z",  # twice
        f"PB-COL-1004;{'L' * 101}",  # too long
        "PB-DFB-1003,X",  # a comma instead of the semicolon
        "",
        "PB-ETH-1001;again",
    ]
    response = await _import(client, "\n".join(lines).encode())
    assert response.json()["detail"] == (
        "Nothing was imported: correct the lines listed and send the file again."
    )
    assert _violations(response) == [
        ("line 3", "There is no service with the reference PB-NOPE-1."),
        ("line 4", "There is no service with the reference PB-ETH-3001."),
        ("line 5", "The service reference is missing."),
        ("line 7", "The service PB-WAV-1002 is already on line 6."),
        ("line 8", "Each client reference must be 100 characters or less."),
        ("line 9", SEMICOLON_ONLY),
        ("line 11", "The service PB-ETH-1001 is already on line 2."),
    ]
    assert _client_references(world, "PB-ETH-1001") == before
    assert _client_references(world, "PB-WAV-1002") != ["Y"]


async def test_control_characters_are_refused_as_in_a_json_body(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    """Issue 18, item 7: the same rule whichever way a client reference arrives."""
    await sign_in("rita")
    before = _client_references(world, "PB-ETH-1001")
    lines = ["reference;clientReferences", "PB-ETH-1001;OK-1,BELL\x07", "PB-WAV-1002\x1b;X"]
    response = await _import(client, "\r\n".join(lines).encode())
    not_allowed = "This value contains characters that are not allowed."
    assert _violations(response) == [("line 2", not_allowed), ("line 3", not_allowed)]
    assert _client_references(world, "PB-ETH-1001") == before


async def test_the_report_is_in_the_readers_language(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("rita")
    response = await client.post(
        IMPORT,
        files={"file": ("r.csv", b"reference;clientReferences\nPB-NOPE;X\n", "text/csv")},
        headers={"Accept-Language": "fr"},
    )
    assert _violations(response) == [("line 2", "Aucun service n'a la référence PB-NOPE.")]
    comma = await client.post(
        IMPORT,
        files={"file": ("r.csv", b"reference,clientReferences\n", "text/csv")},
        headers={"Accept-Language": "fr"},
    )
    assert "point-virgule (;)" in _violations(comma)[0][1]


async def test_a_long_report_is_cut_with_a_count_of_the_rest(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("rita")
    content = "reference;clientReferences\n" + "".join(f"NOPE-{n};X\n" for n in range(150))
    violations = _violations(await _import(client, content.encode()))
    assert len(violations) == 101
    assert violations[-1] == ("file", "And 50 more lines with errors.")


@pytest.fixture
def small_limit() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IMPORT_MAX_BYTES", str(1024 * 1024))
        get_settings.cache_clear()
        yield
    get_settings.cache_clear()


async def test_a_file_over_the_size_limit_is_refused_with_413(
    client: httpx.AsyncClient,
    catalogue: Catalogue,
    sign_in: SignIn,
    world: World,
    small_limit: None,
) -> None:
    await sign_in("rita")
    content = b"reference;clientReferences\nPB-ETH-1001;BIG\n" + b"\n" * (1024 * 1024)
    response = await _import(client, content)
    assert response.status_code == 413
    assert response.json()["detail"] == "The file is larger than the limit of 1 MB."
    assert _client_references(world, "PB-ETH-1001") != ["BIG"]
    # A body far beyond the limit is refused from its declared length, before it is read.
    huge = await _import(client, b"x" * (2 * 1024 * 1024))
    assert huge.status_code == 413


async def test_a_request_without_a_file_is_refused(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("rita")
    assert _violations(await client.post(IMPORT, data={"other": "x"})) == [
        ("file", "This value should not be blank.")
    ]
    assert _violations(await client.post(IMPORT, json={"file": "x"}))[0][0] == "file"


# --- ten thousand lines -----------------------------------------------------------------------


async def test_ten_thousand_lines_import_in_one_go(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    company = world.add_company("bulk", "Bulk Carrier")
    world.add_user("bulkmaster", "bulk", roles=(Role.REFERENCE_MASTER,))
    rows = [
        {
            "id": uuid.uuid4(),
            "reference": f"BULK-{number:05d}",
            "company_id": company,
            "type_id": catalogue.types["ip_transit"],
            "status": ServiceStatus.ACTIVE,
            "client_references": [],
            "search_text": f"bulk-{number:05d}",
        }
        for number in range(10_000)
    ]
    with Session(world.engine) as session:
        session.exec(insert(Service), params=rows)
        session.commit()
    await sign_in("bulkmaster")
    content = "reference;clientReferences\r\n" + "".join(
        f"BULK-{number:05d};C-{number}, PO-{number % 7}\r\n" for number in range(10_000)
    )
    started = time.perf_counter()
    response = await _import(client, content.encode())
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, response.text[:500]
    assert response.json() == {"imported": 10_000}
    assert elapsed < 20, f"the import took {elapsed:.1f} s"
    assert _client_references(world, "BULK-09999") == ["C-9999", "PO-3"]
    found = await client.get("/api/services", params={"search": "c-4242"})
    assert [item["reference"] for item in found.json()["hydra:member"]] == ["BULK-04242"]
