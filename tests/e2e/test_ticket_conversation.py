"""Tickets both ways (issue 49): a ticket opened from a service page with a file, found in the
list, answered with a file; the helpdesk's reply through the integration API (a token made
here) mailed to the requester through the SMTP server, then shown on the provider's side with
the list's unread marker gone once seen. Read-only staff and another company's user cannot
write; a refused file is let go of with its reason."""

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, expect

from tests.e2e.helpers import DEMO_PASSWORD, log_in_as
from tests.e2e.mail import latest_mail_to, text_of

ALICE = "alice@acme-networks.test"
CLAIRE = "claire@globex.test"
SUPPORT = "support@patchbay.test"
ADMIN = "admin@patchbay.test"


@contextmanager
def _provider(portal_url: str, email: str) -> Iterator[httpx.Client]:
    """The provider API logged in as ``email``, as the test finds its data there."""
    with httpx.Client(base_url=f"{portal_url}/provider") as provider:
        answer = provider.post("/login", json={"username": email, "password": DEMO_PASSWORD})
        assert answer.status_code == 204, answer.text
        yield provider


def _first_service(portal_url: str) -> dict[str, Any]:
    with _provider(portal_url, ALICE) as provider:
        return provider.get("/api/services", params={"itemsPerPage": 1}).json()["hydra:member"][0]


def _helpdesk_token(portal_url: str) -> str:
    """A token of the helpdesk's scope, made by an administrator as the guide says."""
    with _provider(portal_url, ADMIN) as provider:
        answer = provider.post(
            "/api/tokens", json={"name": "Helpdesk (browser test)", "scopes": ["ticket_replies"]}
        )
        assert answer.status_code == 201, answer.text
        return answer.json()["token"]


def _settled(page: Page) -> None:
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def _ticket_card(page: Page, number: str) -> Locator:
    link = page.get_by_role("link", name=number, exact=True)
    return page.get_by_test_id("ticket-card").filter(has=link)


def test_a_ticket_opened_from_a_service_is_answered_by_mail_and_read(
    page: Page, portal_url: str, mail_dir: Path, tmp_path: Path
) -> None:
    service = _first_service(portal_url)
    log_in_as(page, ALICE, f"/services/{service['id']}")
    page.get_by_test_id("report-problem").click()
    expect(page).to_have_url(re.compile(r"/tickets/new\?service="))
    expect(page.get_by_test_id("new-ticket-service-chosen")).to_contain_text(service["reference"])
    # Alice has two companies, but the service decides: no company is asked.
    expect(page.locator("#new-ticket-company")).to_have_count(0)

    # Nothing typed is lost when the provider refuses the form: the subject is missing.
    page.locator("#new-ticket-description").fill("No light since **09:40**.")
    # The form is sent as an upload, whose answer streams the handler's updates: Reflex ignores
    # a second upload of the form while the first's answer is still open, and a click comes
    # before the browser's network tasks. A user is not that quick; the test waits for the end.
    with page.expect_response(re.compile(r"/_upload$")) as refused:
        page.get_by_test_id("new-ticket-submit").click()
    refused.value.finished()
    expect(page.get_by_role("alert").first).to_be_visible()
    expect(page.locator("#new-ticket-description")).to_have_value("No light since **09:40**.")

    trace = tmp_path / "traceroute.txt"
    trace.write_text("1  10.0.0.1  0.4 ms\n2  * * *\n")
    page.locator("#new-ticket-subject").fill("Loss of light on the port")
    page.locator("#new-ticket-files").set_input_files(str(trace))
    expect(page.get_by_test_id("chosen-file")).to_contain_text("traceroute.txt")
    page.get_by_test_id("new-ticket-submit").click()

    expect(page).to_have_url(re.compile(r"/tickets/[0-9a-f-]{36}$"))
    expect(page.get_by_test_id("ticket-subject")).to_have_text("Loss of light on the port")
    expect(page.get_by_test_id("ticket-service")).to_have_text(service["reference"])
    expect(page.get_by_test_id("ticket-attachments")).to_contain_text("traceroute.txt")
    expect(page.get_by_test_id("ticket-description")).to_contain_text("No light since 09:40.")
    ticket_path = page.url.split(portal_url, 1)[1]
    number = page.get_by_role("heading", level=1).inner_text().strip()
    assert re.fullmatch(r"#\d+", number), number

    # It is in the list.
    page.goto("/tickets?subject=Loss+of+light+on+the+port")
    _settled(page)
    expect(_ticket_card(page, number)).to_be_visible()

    # A reply with a file, previewed first.
    page.goto(ticket_path)
    reply = page.locator("#ticket-reply")
    reply.fill("Still down after a **reboot**.")
    page.get_by_role("radio", name="Preview").click()
    expect(page.get_by_test_id("reply-preview").locator("strong")).to_have_text("reboot")
    page.get_by_role("radio", name="Write").click()
    capture = tmp_path / "capture.pcap"
    capture.write_bytes(bytes.fromhex("d4c3b2a1020004000000000000000000ffff000001000000"))
    page.locator("#ticket-reply-files").set_input_files(str(capture))
    page.get_by_test_id("reply-send").click()
    mine = page.get_by_test_id("ticket-message").last
    expect(mine).to_have_attribute("data-side", "customer")
    expect(mine.locator("strong")).to_have_text("reboot")
    expect(mine).to_contain_text("capture.pcap")
    expect(reply).to_have_value("")

    # The helpdesk answers through the integration API; the requester is mailed.
    since = time.time()
    with httpx.Client(base_url=f"{portal_url}/provider") as helpdesk:
        answer = helpdesk.put(
            "/api/integration/ticket_replies",
            headers={"Authorization": f"Bearer {_helpdesk_token(portal_url)}"},
            json=[
                {
                    "reference": "HD-E2E-1",
                    "ticket": f"P-{number[1:]}",
                    "author": "Ana Silva",
                    "body": "We replaced the **optic**: the light is back.",
                }
            ],
        )
    assert answer.status_code == 200, answer.text
    mail = latest_mail_to(mail_dir, ALICE, since)
    assert number in str(mail["Subject"])
    # Threaded under the ticket's own root, whatever the e-mail.
    root = f"<ticket-{ticket_path.rsplit('/', 1)[1]}@patchbay.test>"
    assert mail["In-Reply-To"] == root
    assert root in str(mail["References"])
    text = text_of(mail)
    assert "We replaced the" in text
    assert ticket_path in text

    # The list marks the unread reply; the conversation shows it on the provider's side.
    page.goto("/tickets?subject=Loss+of+light+on+the+port")
    _settled(page)
    expect(_ticket_card(page, number).get_by_test_id("ticket-unread")).to_have_text("New reply")
    _ticket_card(page, number).get_by_role("link", name=number, exact=True).click()
    theirs = page.get_by_test_id("ticket-message").last
    expect(theirs).to_have_attribute("data-side", "provider")
    expect(theirs).to_contain_text("Ana Silva")
    expect(theirs.locator("strong")).to_have_text("optic")
    expect(theirs).to_be_in_viewport()
    page.goto("/tickets?subject=Loss+of+light+on+the+port")
    _settled(page)
    expect(_ticket_card(page, number)).to_be_visible()
    expect(_ticket_card(page, number).get_by_test_id("ticket-unread")).to_have_count(0)


def _a_ticket_of_alice(portal_url: str) -> str:
    with _provider(portal_url, ALICE) as provider:
        tickets = provider.get("/api/tickets", params={"status[]": "open"}).json()
        return tickets["hydra:member"][0]["id"]


def test_files_chosen_on_one_ticket_do_not_go_with_a_reply_on_another(
    page: Page, portal_url: str, tmp_path: Path
) -> None:
    first_id = _a_ticket_of_alice(portal_url)
    with _provider(portal_url, ALICE) as provider:
        company = provider.get(f"/api/tickets/{first_id}").json()["company"]
        body = {
            "subject": "Files stay with their ticket",
            "description": "A ticket opened for this test.",
            "type": "question",
            "priority": "low",
            "company": company,
        }
        second = provider.post("/api/tickets", json=body)
        assert second.status_code == 201, second.text
    second_id, number = second.json()["id"], f"#{second.json()['number']}"
    log_in_as(page, ALICE, f"/tickets/{first_id}")
    note = tmp_path / "meant-for-the-first.txt"
    note.write_text("not for the other ticket\n")
    page.locator("#ticket-reply-files").set_input_files(str(note))
    expect(page.get_by_test_id("chosen-file")).to_contain_text("meant-for-the-first.txt")

    # Within the page, not a new load: the browser keeps its chosen files across pages.
    main_navigation = page.get_by_role("navigation", name="Main navigation")
    main_navigation.get_by_role("link", name="Tickets", exact=True).click()
    _settled(page)
    _ticket_card(page, number).get_by_role("link", name=number, exact=True).click()
    expect(page).to_have_url(re.compile(f"/tickets/{second_id}$"))
    expect(page.get_by_test_id("chosen-file")).to_have_count(0)
    page.locator("#ticket-reply").fill("A reply without files.")
    page.get_by_test_id("reply-send").click()
    expect(page.get_by_test_id("ticket-message").last).to_contain_text("A reply without files.")

    with _provider(portal_url, ALICE) as provider:
        messages = provider.get(f"/api/tickets/{second_id}/messages").json()["hydra:member"]
    sent = [message for message in messages if "A reply without files." in message["body"]]
    assert len(sent) == 1
    assert sent[0]["attachments"] == []


def test_a_file_sent_with_a_message_is_listed_with_the_tickets_attachments(
    page: Page, portal_url: str
) -> None:
    ticket_id = _a_ticket_of_alice(portal_url)
    with _provider(portal_url, ALICE) as provider:
        message = provider.post(
            f"/api/tickets/{ticket_id}/messages", json={"body": "The log you asked for."}
        )
        assert message.status_code == 201, message.text
        stored = provider.post(
            f"/api/tickets/{ticket_id}/attachments",
            data={"message": message.json()["id"]},
            files={"file": ("switch-log.txt", b"%LINK-3-UPDOWN: port 7 down\n", "text/plain")},
        )
        assert stored.status_code == 201, stored.text
    log_in_as(page, ALICE, f"/tickets/{ticket_id}")
    expect(page.get_by_test_id("ticket-message").last).to_contain_text("switch-log.txt")
    attachments = page.get_by_test_id("ticket-attachments")
    expect(attachments.get_by_test_id("ticket-conversation-files")).to_contain_text(
        "switch-log.txt"
    )
    expect(attachments).not_to_contain_text("No documents")


def test_read_only_staff_read_a_ticket_but_cannot_write(page: Page, portal_url: str) -> None:
    ticket_id = _a_ticket_of_alice(portal_url)
    log_in_as(page, SUPPORT, f"/tickets/{ticket_id}")
    expect(page.get_by_test_id("ticket-conversation")).to_be_visible()
    expect(page.get_by_test_id("reply-unavailable")).to_be_visible()
    expect(page.get_by_test_id("reply-box")).to_have_count(0)
    expect(page.get_by_test_id("ticket-close")).to_have_count(0)
    page.goto("/tickets")
    _settled(page)
    expect(page.get_by_test_id("new-ticket")).to_have_count(0)
    page.goto("/tickets/new")
    expect(page.get_by_role("alert").get_by_text("Forbidden access")).to_be_visible()


def test_another_companys_ticket_is_not_found_and_takes_no_reply(
    page: Page, portal_url: str
) -> None:
    ticket_id = _a_ticket_of_alice(portal_url)
    log_in_as(page, CLAIRE, f"/tickets/{ticket_id}")
    expect(page.get_by_text("This ticket does not exist or you cannot see it.")).to_be_visible()
    expect(page.get_by_test_id("reply-box")).to_have_count(0)


def test_the_company_is_asked_and_eleven_files_are_refused(
    page: Page, portal_url: str, tmp_path: Path
) -> None:
    files = []
    for index in range(11):
        path = tmp_path / f"log-{index}.txt"
        path.write_text(f"line {index}\n")
        files.append(str(path))
    log_in_as(page, ALICE, "/tickets/new")
    # Without a service, Alice (two companies) chooses the ticket's.
    expect(page.locator("#new-ticket-company")).to_be_visible()
    page.locator("#new-ticket-files").set_input_files(files)
    expect(page.get_by_text("At most 10 files can be attached.")).to_be_visible()
    expect(page.get_by_test_id("chosen-file")).to_have_count(0)


def test_a_ticket_is_closed_then_reopened_and_refuses_replies_meanwhile(
    page: Page, portal_url: str
) -> None:
    with _provider(portal_url, ALICE) as provider:
        company = provider.get("/api/tickets", params={"itemsPerPage": 1}).json()
        body = {
            "subject": "Closing test",
            "description": "Solved already.",
            "type": "question",
            "priority": "low",
            "company": company["hydra:member"][0]["company"],
        }
        opened = provider.post("/api/tickets", json=body)
        assert opened.status_code == 201, opened.text
    log_in_as(page, ALICE, f"/tickets/{opened.json()['id']}")
    expect(page.get_by_test_id("reply-box")).to_be_visible()
    page.get_by_test_id("ticket-close").click()
    expect(page.get_by_test_id("ticket-status")).to_have_text("Closed")
    expect(page.get_by_test_id("reply-unavailable")).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Possible until "))).to_be_visible()
    page.get_by_test_id("ticket-reopen").click()
    expect(page.get_by_test_id("ticket-status")).to_have_text("Open")
    expect(page.get_by_test_id("reply-box")).to_be_visible()
    expect(page.get_by_test_id("ticket-reopen")).to_have_count(0)


def _box(locator: Locator) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None
    return box


def test_at_phone_width_new_ticket_and_the_chosen_service_fit_the_screen(
    page: Page, portal_url: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    log_in_as(page, ALICE, "/tickets")
    _settled(page)
    # The list's action on a row of its own above the filters, not wrapped under the switch.
    new = _box(page.get_by_test_id("new-ticket"))
    first_filter = _box(page.locator("#tickets-id").locator("xpath=.."))  # the field, its slot too
    assert new["y"] + new["height"] <= first_filter["y"]
    assert (new["x"], new["width"]) == (first_filter["x"], first_filter["width"])

    service = _first_service(portal_url)
    page.goto(f"/tickets/new?service={service['id']}")
    chip = page.get_by_test_id("new-ticket-service-chosen")
    expect(chip).to_contain_text(service["reference"])
    remove = page.get_by_role("button", name="Remove the service")
    # A long label wraps in the chip: its remove button stays on the screen, beside it.
    assert _box(remove)["x"] + _box(remove)["width"] <= 390
    assert _box(chip)["x"] + _box(chip)["width"] <= _box(remove)["x"]
    remove.click()
    expect(page.locator("#new-ticket-service")).to_be_visible()
