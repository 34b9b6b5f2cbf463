"""The ticket screens' pure parts (issue 49): the new ticket form's address and service choice,
the size of a chosen file."""

from portal import routes
from portal.client.models import Service
from portal.components.tickets.files import size_text
from portal.pages.new_ticket.models import ServiceOption


def test_the_form_about_a_service_names_it_in_its_address() -> None:
    assert routes.new_ticket_path() == "/tickets/new"
    assert routes.new_ticket_path("a b") == "/tickets/new?service=a+b"


def test_a_service_is_offered_by_reference_client_reference_and_type() -> None:
    service = Service.model_validate(
        {
            "id": "s1",
            "reference": "PB-ETH-7",
            "clientReferences": ["LYON-DC2", "other"],
            "type": {"label": "Ethernet"},
        }
    )
    assert ServiceOption.of(service) == ServiceOption(
        id="s1", label="PB-ETH-7 · LYON-DC2 · Ethernet"
    )
    bare = Service.model_validate({"id": "s2", "reference": "PB-IPT-1"})
    assert ServiceOption.of(bare).label == "PB-IPT-1"


def test_a_file_size_reads_in_the_users_language() -> None:
    assert size_text(10, "en") == "1 KB"
    assert size_text(2048, "en") == "2 KB"
    assert size_text(1536 * 1024, "fr") == "1,5 MB"
    assert size_text(1536 * 1024, "en") == "1.5 MB"
