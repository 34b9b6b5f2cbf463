"""The services screens' pure parts: the list's URL query, the type filter's folding, the
rows of the list, the service page's model and the maintenance duration (spec 2, 4, 9)."""

from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlsplit

from portal.client.models import Maintenance, Service, ServiceFilters
from portal.client.resources.services import ServicesResource
from portal.components.maintenances.models import MaintenanceDetail, duration_hours
from portal.components.multi_select import Option
from portal.components.paging import Paging
from portal.components.services.models import ServiceRow, fold, matching
from portal.components.services.query import SERVICES_URL, status_list_url
from portal.pages.service.models import ServiceDetail, attribute_groups


def test_a_bare_url_opens_twelve_services_newest_first() -> None:
    filters, paging = SERVICES_URL.read([])
    assert filters == ServiceFilters()
    assert paging.items_per_page == 12
    assert paging.order == {"dateStart": "desc"}
    assert SERVICES_URL.url("/services", filters, paging) == "/services"


def test_list_filters_repeat_in_the_url_and_survive_a_round_trip() -> None:
    filters = ServiceFilters(
        search="lyon", statuses=["active", "terminated"], type_uuids=["t1", "t2"]
    )
    paging = Paging(page=3, items_per_page=12, sort_field="dateStart", sort_direction="desc")
    url = SERVICES_URL.url("/services", filters, paging)
    assert url == (
        "/services?search=lyon&status=active&status=terminated&type.uuid=t1&type.uuid=t2&page=3"
    )
    assert SERVICES_URL.read(parse_qsl(urlsplit(url).query)) == (filters, paging)


def test_the_bracket_spelling_is_read_and_junk_is_dropped() -> None:
    filters, paging = SERVICES_URL.read(
        [
            ("status[]", "active"),
            ("status", "active"),
            ("status", "deleted"),
            ("type.uuid[]", "t1"),
            ("search", "  paris  "),
            ("page", "x"),
            ("itemsPerPage", "1000"),
        ]
    )
    assert filters.statuses == ["active"]
    assert filters.type_uuids == ["t1"]
    assert filters.search == "paris"
    assert paging == SERVICES_URL.paging


def test_the_export_uses_the_providers_list_spelling() -> None:
    filters = ServiceFilters(search="a b", statuses=["active"], type_uuids=["t1"])
    assert ServicesResource.export_query(filters) == [
        ("search", "a b"),
        ("status[]", "active"),
        ("type.uuid[]", "t1"),
    ]


def test_a_tile_links_to_the_list_filtered_on_its_status() -> None:
    assert status_list_url("/services", "under_construction") == (
        "/services?status=under_construction"
    )


def test_the_type_filter_ignores_case_and_accents() -> None:
    options = [
        Option(value="1", label="Fibre noire"),
        Option(value="2", label="Hébergement"),
        Option(value="3", label="Longueur d'onde 10G"),
    ]
    assert fold("Hébergement ÉTÉ") == "hebergement ete"
    assert [o.value for o in matching(options, "HEBERG")] == ["2"]
    assert [o.value for o in matching(options, "  ")] == ["1", "2", "3"]
    assert matching(options, "xyz") == []


SERVICE = {
    "@id": "/api/services/s1",
    "reference": "PB-ETH-1",
    "clientReferences": ["A", "B", "C"],
    "status": "terminated",
    "type": {"@id": "/api/service_types/t1", "label": "Ethernet"},
    "dateStart": "2024-03-05",
    "dateTermination": "2026-01-31",
    "order": {"reference": "ORD-9", "pdf": "/api/services/s1/order_pdf", "pdfName": "o.pdf"},
    "company": {"@id": "/api/companies/c1", "name": "Acme"},
    "endpointA": {"name": "Equinix PA2", "city": "Saint-Denis"},
    "endpointB": None,
    "deliveryManager": {"firstname": "Dan", "lastname": "Moreau", "email": "d@p.test"},
    "handovers": [{"name": "H.pdf", "link": "/api/services/s1/documents/d1"}],
    "attributes": [
        {
            "name": "rate",
            "label": "Rate",
            "value": "10G",
            "valueLabel": "10 Gbit/s",
            "groupName": "port",
            "groupLabel": "Port",
        },
        {"name": "sla", "label": "Service level", "value": "premium", "valueLabel": "Premium"},
        {
            "name": "port",
            "label": "Port",
            "value": "LR4",
            "valueLabel": "",
            "groupName": "port",
            "groupLabel": "Port",
        },
    ],
}


def test_a_list_row_is_small_and_formatted_in_the_users_language() -> None:
    row = ServiceRow.of(Service.model_validate(SERVICE), "fr")
    assert row.path == "/services/s1"
    assert row.client_references == "A, B, C"
    assert row.type_label == "Ethernet"
    assert row.endpoint_a == "Equinix PA2, Saint-Denis"
    assert row.endpoint_b == ""
    assert row.date_start == "5 mars 2024"


def test_the_service_page_groups_attributes_and_proxies_every_document() -> None:
    detail = ServiceDetail.of(Service.model_validate(SERVICE), "en")
    assert detail.is_terminating
    assert detail.handovers[0].url.endswith("/_portal/files/api/services/s1/documents/d1")
    assert detail.order_form.url.endswith("/_portal/files/api/services/s1/order_pdf")
    assert detail.order_form.name == "o.pdf"
    assert detail.delivery_manager == "Dan Moreau"
    assert [(g.label, [(v.label, v.value) for v in g.values]) for g in detail.attribute_groups] == [
        ("Port", [("Rate", "10 Gbit/s"), ("Port", "LR4")]),
        ("", [("Service level", "Premium")]),
    ]


def test_without_order_form_access_there_is_no_download() -> None:
    bare = {**SERVICE, "order": {"reference": "ORD-9", "pdf": None, "pdfName": None}}
    assert ServiceDetail.of(Service.model_validate(bare), "en").order_form.url == ""
    assert attribute_groups([]) == []


def _maintenance(start: str, end: str) -> Maintenance:
    return Maintenance.model_validate(
        {"@id": "/api/maintenances/m1", "dateStart": start, "dateEnd": end}
    )


def test_a_maintenance_lasts_whole_hours_rounded_up() -> None:
    assert duration_hours(_maintenance("2026-11-02T22:00:00Z", "2026-11-03T04:30:00Z")) == 7
    assert duration_hours(_maintenance("2026-11-02T22:00:00Z", "2026-11-02T23:00:00Z")) == 1
    # Absolute: an end typed before the start still gives the length of the window.
    assert duration_hours(_maintenance("2026-11-03T04:00:00Z", "2026-11-02T22:00:00Z")) == 6


def test_the_full_maintenance_lists_its_services_and_contacts() -> None:
    maintenance = Maintenance.model_validate(
        {
            "@id": "/api/maintenances/m1",
            "reference": "MNT-1",
            "dateStart": datetime(2026, 11, 2, 22, tzinfo=UTC).isoformat(),
            "dateEnd": datetime(2026, 11, 3, 1, tzinfo=UTC).isoformat(),
            "services": [
                {
                    "@id": "/api/services/s1",
                    "reference": "PB-1",
                    "type": {"label": "IP"},
                    "endpointA": {"name": "TH2", "city": "Paris"},
                }
            ],
            "contacts": [{"email": "noc@patchbay.test"}, {"email": ""}],
        }
    )
    detail = MaintenanceDetail.full(maintenance, "en", "Europe/Paris")
    assert detail.hours == 3
    assert detail.start == "2 Nov 2026, 11:00 pm"  # 22:00 UTC is 23:00 in Paris
    assert [(s.path, s.type_label, s.endpoint_a) for s in detail.services] == [
        ("/services/s1", "IP", "TH2, Paris")
    ]
    assert detail.contacts == ["noc@patchbay.test"]
