"""The services, service types, termination documents, maintenances and invoices calls: what
goes on the wire and how the answers are read (httpx.MockTransport)."""

import io
import json
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal

import httpx
import pytest

from portal.client import NotFound, ProviderClient, ValidationFailed
from portal.client.models import InvoiceFilters, MaintenanceFilters, ServiceFilters

BASE_URL = "http://provider.test/provider"
SERVICE_ID = "3f0c9a52-8f0e-4d7e-9a51-3d8f1c2b9e10"
TYPE_ID = "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6"

SERVICE = {
    "@id": f"/api/services/{SERVICE_ID}",
    "@type": "Service",
    "id": SERVICE_ID,
    "reference": "PB-ETH-24100",
    "clientReferences": ["ACME-PAR-1", "ACME-LYS-2"],
    "status": "under_construction",
    "statusLabel": "Under construction",
    "milestones": [
        {"name": "received", "label": "Received", "date": "2026-09-01", "completed": True},
        {"name": "in_study", "label": "In study", "date": None, "completed": False},
    ],
    "type": {"@id": f"/api/service_types/{TYPE_ID}", "id": TYPE_ID, "uuid": TYPE_ID, "label": "X"},
    "dateStart": None,
    "dateTermination": None,
    "order": {"reference": "ORD-1", "pdf": None, "pdfName": None},
    "company": {"@id": "/api/companies/c1", "id": "c1", "name": "Acme Networks"},
    "endpointA": {
        "name": "Equinix PA2",
        "number": "114",
        "street": "rue Ambroise Croizat",
        "postalCode": "93200",
        "city": "Saint-Denis",
        "country": "France",
    },
    "endpointB": None,
    "deliveryManager": {"firstname": "Dan", "lastname": "Moreau", "email": "dan@patchbay.test"},
    "handovers": [{"name": "Handover.pdf", "link": f"/api/services/{SERVICE_ID}/documents/d1"}],
    "loas": [],
    "attributes": [
        {
            "name": "rate",
            "label": "Rate",
            "value": "10G",
            "valueLabel": "10 Gbit/s",
            "groupName": "port",
            "groupLabel": "Port",
            "constrained": True,
        }
    ],
}


def client_answering(
    requests: list[httpx.Request],
    answer: Callable[[httpx.Request], httpx.Response] | object = None,
) -> ProviderClient:
    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        if callable(answer):
            return answer(request)
        body = answer if answer is not None else {"hydra:member": [], "hydra:totalItems": 0}
        return httpx.Response(200, json=body)

    return ProviderClient(BASE_URL, transport=httpx.MockTransport(handler))


async def test_services_list_sends_filters_order_and_includes() -> None:
    requests: list[httpx.Request] = []
    body = {"hydra:member": [SERVICE], "hydra:totalItems": 31}
    async with client_answering(requests, body) as client:
        page = await client.services.list(
            page=2,
            items_per_page=12,
            order={"dateStart": "desc"},
            filters=ServiceFilters(
                search="paris", statuses=["active", "terminated"], type_uuids=[TYPE_ID]
            ),
            includes=("type",),
        )

    (request,) = requests
    assert request.url.path == "/provider/api/services"
    assert request.url.params.multi_items() == [
        ("page", "2"),
        ("itemsPerPage", "12"),
        ("order[dateStart]", "desc"),
        ("includes[]", "type"),
        ("search", "paris"),
        ("status[]", "active"),
        ("status[]", "terminated"),
        ("type.uuid[]", TYPE_ID),
    ]
    assert page.total == 31
    assert page.page_count == 3
    service = page.items[0]
    assert service.reference == "PB-ETH-24100"
    assert service.client_references == ["ACME-PAR-1", "ACME-LYS-2"]
    assert service.milestones[0].date == date(2026, 9, 1)
    assert service.milestones[1].completed is False
    assert service.type is not None
    assert service.type.uuid == TYPE_ID
    assert service.endpoint_a is not None
    assert service.endpoint_a.address == "114 rue Ambroise Croizat, 93200 Saint-Denis, France"
    assert service.delivery_manager is not None
    assert service.delivery_manager.full_name == "Dan Moreau"
    assert service.attributes[0].value_label == "10 Gbit/s"


async def test_an_empty_search_sends_no_filter_and_the_count_asks_for_no_row() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, {"hydra:member": [], "hydra:totalItems": 7}) as client:
        await client.services.list(ServiceFilters(search=" ", statuses=[], type_uuids=[]))
        count = await client.services.count(ServiceFilters(statuses=["active"]))

    assert requests[0].url.params.multi_items() == [("page", "1"), ("itemsPerPage", "10")]
    assert requests[1].url.params.multi_items() == [
        ("page", "1"),
        ("itemsPerPage", "0"),
        ("status[]", "active"),
    ]
    assert count == 7


async def test_a_service_is_read_with_its_relations_and_a_bare_type_iri() -> None:
    requests: list[httpx.Request] = []
    bare = {**SERVICE, "type": f"/api/service_types/{TYPE_ID}", "company": "/api/companies/c1"}
    async with client_answering(requests, bare) as client:
        service = await client.services.get(SERVICE_ID)

    assert requests[0].url.path == f"/provider/api/services/{SERVICE_ID}"
    assert requests[0].url.params.get_list("includes[]") == ["order", "company", "type"]
    assert service.type is not None
    assert service.type.id == TYPE_ID
    assert service.company is not None
    assert service.company.id == "c1"


async def test_a_missing_service_raises_not_found() -> None:
    def missing(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"detail": "Not found"})

    async with client_answering([], missing) as client:
        with pytest.raises(NotFound):
            await client.services.get("unknown")


async def test_client_references_are_sent_as_one_comma_separated_string() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, SERVICE) as client:
        service = await client.services.update_client_references("PB-ETH-24100", "a, b")

    (request,) = requests
    assert request.method == "POST"
    assert request.url.path == "/provider/api/services/client_reference"
    assert json.loads(request.content) == {"reference": "PB-ETH-24100", "clientReferences": "a, b"}
    assert service.id == SERVICE_ID


async def test_the_import_is_a_multipart_upload_of_the_file_field() -> None:
    requests: list[httpx.Request] = []
    async with client_answering(requests, {"imported": 2}) as client:
        result = await client.services.import_client_references(
            "refs.csv", b"reference;clientReferences\r\nPB-1;a\r\n"
        )

    (request,) = requests
    assert request.url.path == "/provider/api/services/client_reference/import"
    assert request.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="file"; filename="refs.csv"' in request.content
    assert b"Content-Type: text/csv" in request.content
    assert b"PB-1;a" in request.content
    assert result.imported == 2


class _RecordedReads(io.BytesIO):
    """A file whose reads are recorded, as the upload's spool the portal sends on."""

    def __init__(self, content: bytes) -> None:
        super().__init__(content)
        self.sizes: list[int | None] = []

    def read(self, size: int | None = -1) -> bytes:
        self.sizes.append(size)
        return super().read(size)


async def test_an_imported_file_object_is_sent_a_chunk_at_a_time() -> None:
    """Issue 47, item 10: the portal passes the upload's file on, never its bytes whole."""
    content = b"reference;clientReferences\r\nPB-1;a\r\n" + b"\r\n" * 200_000
    upload = _RecordedReads(content)
    requests: list[httpx.Request] = []
    async with client_answering(requests, {"imported": 1}) as client:
        await client.services.import_client_references("refs.csv", upload)

    (request,) = requests
    assert content in request.content
    assert len(upload.sizes) > 1
    assert all(size is not None and 0 < size < len(content) for size in upload.sizes)


async def test_an_import_refused_line_by_line_keeps_each_line_report() -> None:
    report = {
        "detail": "The file was not imported.",
        "violations": [
            {"propertyPath": "line 2", "message": "Unknown reference PB-0."},
            {"propertyPath": "line 5", "message": "Missing reference."},
        ],
    }

    def refused(request: httpx.Request) -> httpx.Response:
        return httpx.Response(422, json=report)

    async with client_answering([], refused) as client:
        with pytest.raises(ValidationFailed) as raised:
            await client.services.import_client_references("refs.csv", b"x")

    assert raised.value.by_field() == {
        "line 2": ["Unknown reference PB-0."],
        "line 5": ["Missing reference."],
    }


async def test_the_export_streams_the_filtered_csv() -> None:
    requests: list[httpx.Request] = []
    csv = "\ufeffreference;clientReferences\r\nPB-1;a\r\n".encode()

    def exported(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Disposition": 'attachment; filename="export_services.csv"'}
        return httpx.Response(200, stream=httpx.ByteStream(csv), headers=headers)

    async with client_answering(requests, exported) as client:
        response = await client.services.export(ServiceFilters(search="lyon", statuses=["active"]))
        body = b"".join([chunk async for chunk in response.aiter_bytes()])
        await response.aclose()

    (request,) = requests
    assert request.url.path == "/provider/api/services/export"
    assert request.url.params.multi_items() == [("search", "lyon"), ("status[]", "active")]
    assert request.headers["Accept"] == "*/*"
    assert body == csv
    assert "export_services.csv" in response.headers["Content-Disposition"]


async def test_a_refused_download_raises_and_is_closed() -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"detail": "Not Found"})

    async with client_answering([], refused) as client:
        with pytest.raises(NotFound):
            await client.open_stream("/api/services/x/documents/y")
        with pytest.raises(NotFound):
            await client.services.template()


async def test_service_types_come_in_one_call() -> None:
    requests: list[httpx.Request] = []
    body = {
        "hydra:member": [{"@id": f"/api/service_types/{TYPE_ID}", "uuid": TYPE_ID, "label": "IP"}],
        "hydra:totalItems": 1,
    }
    async with client_answering(requests, body) as client:
        types = await client.service_types.list()

    assert requests[0].url.path == "/provider/api/service_types"
    assert requests[0].url.params["itemsPerPage"] == "200"
    assert [(t.id, t.uuid, t.label) for t in types] == [(TYPE_ID, TYPE_ID, "IP")]


async def test_termination_documents_are_filtered_on_the_service() -> None:
    requests: list[httpx.Request] = []
    body = {
        "hydra:member": [
            {"@id": "/api/termination_documents/t1", "filename": "x.pdf", "downloadUrl": "/u"}
        ],
        "hydra:totalItems": 1,
    }
    async with client_answering(requests, body) as client:
        documents = await client.termination_documents.for_service(SERVICE_ID)

    assert requests[0].url.params["termination.services.uuid"] == SERVICE_ID
    assert [(d.id, d.filename, d.download_url) for d in documents] == [("t1", "x.pdf", "/u")]


async def test_maintenances_are_read_from_items_and_the_full_one_has_services() -> None:
    requests: list[httpx.Request] = []
    row = {
        "@id": "/api/maintenances/m1",
        "id": "m1",
        "reference": "MNT-1",
        "name": "Fibre works",
        "type": "preventive",
        "typeLabel": "Preventive",
        "classification": "outage",
        "classificationLabel": "Outage",
        "status": "scheduled",
        "statusLabel": "Scheduled",
        "dateStart": "2026-11-02T22:00:00+00:00",
        "dateEnd": "2026-11-03T04:30:00+00:00",
        "dateNotification": "2026-10-20T09:00:00+00:00",
    }
    full = {
        **row,
        "services": [{"@id": "/api/services/s1", "reference": "PB-1", "type": {"label": "IP"}}],
        "contacts": [{"email": "noc@patchbay.test", "name": "NOC"}],
    }

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/m1"):
            return httpx.Response(200, json=full)
        return httpx.Response(200, json={"items": [row], "totalItems": 11})

    async with client_answering(requests, answer) as client:
        page = await client.maintenances.list(
            MaintenanceFilters(service_reference="PB-1"),
            items_per_page=10,
            order={"dateStart": "desc"},
        )
        maintenance = await client.maintenances.get("m1")

    assert requests[0].url.params.multi_items() == [
        ("page", "1"),
        ("itemsPerPage", "10"),
        ("order[dateStart]", "desc"),
        ("service.reference", "PB-1"),
    ]
    assert page.total == 11
    assert page.items[0].date_start == datetime.fromisoformat("2026-11-02T22:00:00+00:00")
    assert maintenance.services[0].id == "s1"
    assert maintenance.services[0].type is not None
    assert maintenance.services[0].type.label == "IP"
    assert maintenance.contacts[0].email == "noc@patchbay.test"


async def test_invoices_send_every_filter_of_the_contract() -> None:
    requests: list[httpx.Request] = []
    body = {
        "hydra:member": [
            {
                "@id": "/api/invoices/i1",
                "reference": "INV-1",
                "type": "invoice",
                "dateInvoice": "2026-10-01",
                "amount": "1234.50",
                "amountWithTax": 1481.4,
                "isPaid": False,
                "pdf": "/api/invoices/i1/pdf",
            }
        ],
        "hydra:totalItems": 1,
    }
    async with client_answering(requests, body) as client:
        page = await client.invoices.list(
            items_per_page=25,
            order={"dateInvoice": "desc"},
            filters=InvoiceFilters(
                service_uuid=SERVICE_ID,
                type="invoice",
                is_paid=False,
                reference="INV",
                due_after=date(2026, 1, 1),
                due_before=date(2026, 12, 31),
            ),
        )

    assert requests[0].url.params.multi_items() == [
        ("page", "1"),
        ("itemsPerPage", "25"),
        ("order[dateInvoice]", "desc"),
        ("lines.services.uuid", SERVICE_ID),
        ("type", "invoice"),
        ("isPaid", "false"),
        ("reference", "INV"),
        ("dateDue[after]", "2026-01-01"),
        ("dateDue[before]", "2026-12-31"),
    ]
    invoice = page.items[0]
    assert (invoice.id, invoice.amount, invoice.amount_with_tax) == (
        "i1",
        Decimal("1234.50"),
        Decimal("1481.4"),
    )
