"""The services export (spec 7, DESIGN 6): the list's filters, UTF-8 with BOM, semicolons,
formulas neutralised, and a file that imports back unchanged."""

import csv
import io

import httpx

from tests.provider.conftest import SignIn, World
from tests.provider.metric_values import sample
from tests.provider.services_data import Catalogue, catalogue, data_dir
from tests.provider.test_service_import import IMPORT, UPDATE, _client_references

__all__ = ["catalogue", "data_dir"]

EXPORT = "/api/services/export"
HEADER = [
    "reference",
    "clientReferences",
    "type",
    "status",
    "company",
    "dateStart",
    "dateTermination",
    "endpointA",
    "endpointB",
]


def _rows(response: httpx.Response) -> list[list[str]]:
    assert response.status_code == 200, response.text
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";"))


async def test_the_export_needs_a_session(client: httpx.AsyncClient, catalogue: Catalogue) -> None:
    assert (await client.get(EXPORT)).status_code == 401


async def test_the_export_is_a_semicolon_csv_of_the_readers_services(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("bob")
    response = await client.get(EXPORT)
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="export_services.csv"'
    assert b"\r\n" in response.content
    rows = _rows(response)
    assert rows[0] == HEADER
    assert [row[0] for row in rows[1:]] == [
        "PB-COL-1004",
        "PB-DFB-1003",
        "PB-ETH-1001",
        "PB-WAV-1002",
    ]
    assert rows[3] == [
        "PB-ETH-1001",
        "ACME-PAR-001, PO-2024-0001",
        "Ethernet private line (EPL)",
        "Operational",
        "Acme Networks",
        "2024-01-10",
        "",
        "Équinix PA2, Saint-Denis",
        "Telehouse 2, Paris",
    ]


async def test_the_export_follows_the_lists_filters_order_and_language(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("admin")
    params = [
        ("status[]", "terminated"),
        ("search", "fibre"),
        ("order[reference]", "desc"),
    ]
    rows = _rows(await client.get(EXPORT, params=params, headers={"Accept-Language": "fr"}))
    assert [(row[0], row[2], row[3], row[4]) for row in rows[1:]] == [
        ("PB-DFB-3002", "Fibre noire – métropolitaine", "Résilié", "Globex"),
        ("PB-DFB-1003", "Fibre noire – métropolitaine", "Résilié", "Acme Networks"),
    ]
    type_filter = [("type.uuid[]", str(catalogue.types["ip_transit"]))]
    assert [row[0] for row in _rows(await client.get(EXPORT, params=type_filter))[1:]] == [
        "PB-IPT-2001"
    ]


async def test_cells_a_spreadsheet_would_run_are_neutralised(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn
) -> None:
    await sign_in("rita")
    body = {"reference": "PB-COL-1004", "clientReferences": '=HYPERLINK("http://x"), ok'}
    assert (await client.post(UPDATE, json=body)).status_code == 200
    for formula in ("+33 1", "-2", "@SUM(A1)"):
        await client.post(UPDATE, json={"reference": "PB-WAV-1002", "clientReferences": formula})
        rows = _rows(await client.get(EXPORT, params={"search": "PB-WAV-1002"}))
        assert rows[1][1] == f"'{formula}"
    rows = _rows(await client.get(EXPORT, params={"search": "PB-COL-1004"}))
    assert rows[1][1] == '\'=HYPERLINK("http://x"), ok'


async def test_an_export_edited_and_imported_back_gives_the_same_data(
    client: httpx.AsyncClient, catalogue: Catalogue, sign_in: SignIn, world: World
) -> None:
    await sign_in("rita")
    await client.post(UPDATE, json={"reference": "PB-ETH-1001", "clientReferences": "=1+1, Réf é"})
    await client.post(UPDATE, json={"reference": "PB-DFB-1003", "clientReferences": "-A; B"})
    exported_bytes = sample("patchbay_export_bytes_sum", route=EXPORT)
    exported = (await client.get(EXPORT)).content
    # Issue 17: the operators see the sizes of exports and imports.
    assert sample("patchbay_export_bytes_sum", route=EXPORT) == exported_bytes + len(exported)
    imports = sample("patchbay_import_bytes_count", route=IMPORT)
    imported_bytes = sample("patchbay_import_bytes_sum", route=IMPORT)
    before = {
        reference: _client_references(world, reference)
        for reference in ("PB-ETH-1001", "PB-DFB-1003", "PB-COL-1004", "PB-WAV-1002", "PB-IPT-2001")
    }
    # Unchanged, the export imports back to the same references.
    response = await client.post(
        IMPORT, files={"file": ("export_services.csv", exported, "text/csv")}
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"imported": 4}
    assert sample("patchbay_import_bytes_count", route=IMPORT) == imports + 1
    assert sample("patchbay_import_bytes_sum", route=IMPORT) > imported_bytes + len(exported)
    assert {reference: _client_references(world, reference) for reference in before} == before
    # Edited: one line's references changed, the rest as exported.
    rows = _rows(httpx.Response(200, content=exported))
    for row in rows:
        if row[0] == "PB-COL-1004":
            row[1] = "EDITED-1, EDITED-2"
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    edited = ("\ufeff" + buffer.getvalue()).encode("utf-8")
    response = await client.post(
        IMPORT, files={"file": ("export_services.csv", edited, "text/csv")}
    )
    assert response.status_code == 200, response.text
    assert _client_references(world, "PB-COL-1004") == ["EDITED-1", "EDITED-2"]
    assert _client_references(world, "PB-ETH-1001") == ["=1+1", "Réf é"]
    assert _client_references(world, "PB-DFB-1003") == ["-A; B"]
