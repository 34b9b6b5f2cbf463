"""The ticket screens' pure parts (issue 49): the new ticket form's address and service choice,
the size of a chosen file, the unread marker, reopening, a message's side and files."""

import datetime as dt

from portal import routes
from portal.client.models import Service, Ticket, TicketMessage
from portal.components.tickets.files import size_text
from portal.components.tickets.models import TicketRow
from portal.pages.new_ticket.models import ServiceOption
from portal.pages.ticket.models import MessageView, TicketDetail


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


TICKET = {"id": "t1", "number": 100231, "status": "closed", "priority": "high", "subject": "Loss"}


def test_a_row_carries_the_unread_reply_marker() -> None:
    unread = Ticket.model_validate({**TICKET, "hasUnreadReply": True})
    assert TicketRow.of(unread, "en", "UTC").unread is True
    assert TicketRow.of(Ticket.model_validate(TICKET), "en", "UTC").unread is False


def test_a_closed_ticket_offers_reopening_until_the_providers_date_only() -> None:
    now = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    until = {**TICKET, "reopenableUntil": "2026-12-04T09:00:00Z", "canWrite": False}
    detail = TicketDetail.of(Ticket.model_validate(until), "en", "UTC", now=now)
    assert detail.reopenable_until != ""
    assert detail.can_write is False
    later = now + dt.timedelta(days=5)
    assert (
        TicketDetail.of(Ticket.model_validate(until), "en", "UTC", now=later).reopenable_until == ""
    )
    assert (
        TicketDetail.of(Ticket.model_validate(TICKET), "en", "UTC", now=now).reopenable_until == ""
    )


def test_a_message_shows_its_side_and_downloads_its_files_through_the_portal() -> None:
    message = TicketMessage.model_validate(
        {
            "id": "m1",
            "author": "Helpdesk",
            "authorType": "provider",
            "body": "<p>Fixed</p>",
            "created": "2026-11-21T10:00:00Z",
            "attachments": [{"id": "f1", "name": "a.pdf", "url": "/api/tickets/t1/attachments/f1"}],
        }
    )
    view = MessageView.of(message, "en", "UTC")
    assert view.from_provider is True
    assert view.attachments[0].url.endswith("/_portal/files/api/tickets/t1/attachments/f1")
    assert routes.is_document_download("api/tickets/t1/attachments/f1")
    customer = TicketMessage.model_validate({"id": "m2", "authorType": "customer"})
    assert MessageView.of(customer, "en", "UTC").from_provider is False
