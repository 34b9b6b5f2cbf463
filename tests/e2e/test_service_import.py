"""Import of client references (spec 2 and 5): the dialog's warning and template, a refused
file cleared with its message, a refused line report, and a good file shown after the reload.
The chosen file leaves the browser only on Validate (issue 47, item 10)."""

import re

from playwright.sync_api import Locator, Page, Request, expect

from tests.e2e.helpers import log_in_as

ALICE = "alice@acme-networks.test"


def _open_dialog(page: Page) -> tuple[Locator, str]:
    """Opens the import dialog; returns it and the reference of a service of Alice's."""
    log_in_as(page, ALICE, "/services")
    reference = page.get_by_test_id("service-card").nth(2).get_by_role("link").inner_text()
    page.get_by_role("button", name="Import reference").click()
    dialog = page.get_by_role("dialog", name="Import client references")
    expect(dialog).to_contain_text("The CSV file must use semicolons (;) as separators.")
    return dialog, reference


def _choose(dialog: Locator, name: str, mime: str, content: bytes) -> None:
    dialog.locator("input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": content}]
    )


def test_the_template_downloads(page: Page) -> None:
    dialog, _ = _open_dialog(page)
    with page.expect_download() as download_info:
        dialog.get_by_role("link", name="Download the CSV template").click()
    download = download_info.value
    assert download.suggested_filename == "client-reference.csv"
    with open(download.path(), "rb") as template:
        assert template.read().decode("utf-8-sig").startswith("reference;clientReferences")


def test_a_file_that_is_not_csv_is_refused_and_cleared(page: Page) -> None:
    dialog, reference = _open_dialog(page)
    validate = dialog.get_by_role("button", name="Validate")
    expect(validate).to_be_disabled()
    _choose(
        dialog,
        "references.csv",
        "text/csv",
        f"reference;clientReferences\n{reference};A\n".encode(),
    )
    expect(dialog.get_by_test_id("chosen-file")).to_have_text("references.csv")
    expect(validate).to_be_enabled()
    _choose(dialog, "references.txt", "text/plain", b"reference;clientReferences\n")
    expect(dialog.get_by_role("alert")).to_contain_text("Only CSV files (.csv) are accepted.")
    expect(dialog.get_by_test_id("chosen-file")).to_have_count(0)
    expect(validate).to_be_disabled()
    # The browser's own input holds no file either: the selection is cleared (spec 5), and the
    # same file, corrected, can be chosen again.
    expect(dialog.locator("input[type=file]")).to_have_value("")


def test_a_refused_file_shows_the_lines_and_changes_nothing(page: Page) -> None:
    dialog, reference = _open_dialog(page)
    content = f"reference;clientReferences\n{reference};E2E-BAD\nPB-NOPE-1;X\n".encode()
    _choose(dialog, "references.csv", "text/csv", content)
    dialog.get_by_role("button", name="Validate").click()
    report = dialog.get_by_role("alert")
    expect(report).to_contain_text(re.compile(r"line 3", re.IGNORECASE))
    expect(report).to_contain_text("PB-NOPE-1")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_have_count(0)
    page.get_by_label("Search services").fill("E2E-BAD")
    expect(page.get_by_test_id("services-count")).to_have_text("0 services found")


def test_a_good_file_is_imported_and_the_list_reloads(page: Page) -> None:
    dialog, reference = _open_dialog(page)
    content = f"\ufeffreference;clientReferences\r\n{reference};E2E-IMPORTED-1, E2E-IMPORTED-2\r\n"
    _choose(dialog, "references.csv", "application/vnd.ms-excel", content.encode())
    dialog.get_by_role("button", name="Validate").click()
    expect(page.get_by_text("1 service updated.")).to_be_visible()
    expect(dialog).to_have_count(0)
    page.get_by_label("Search services").fill("E2E-IMPORTED-2")
    card = page.get_by_test_id("service-card")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(reference)
    expect(card).to_contain_text("E2E-IMPORTED-1, E2E-IMPORTED-2")


def test_a_file_leaves_the_browser_on_validate_only_and_5_mb_import(page: Page) -> None:
    """Issue 47, item 10: the file used to be posted as soon as it was chosen and kept whole in
    the tab's state, serialized with its every event. Choosing it now sends its name, type and
    size; Validate posts it once, and the portal streams it on to the provider."""
    dialog, reference = _open_dialog(page)
    uploads: list[Request] = []

    def record(request: Request) -> None:
        if "/_upload" in request.url:
            uploads.append(request)

    page.on("request", record)
    validate = dialog.get_by_role("button", name="Validate")

    _choose(dialog, "huge.csv", "text/csv", b"reference;clientReferences\n" + b"\n" * 5_300_000)
    refusal = "The file is larger than the limit of 5 MB."
    expect(dialog.get_by_role("alert")).to_contain_text(refusal)
    expect(dialog.get_by_test_id("chosen-file")).to_have_count(0)
    expect(validate).to_be_disabled()

    lines = f"reference;clientReferences\r\n{reference};E2E-LARGE-FILE\r\n".encode()
    # Blank lines are skipped: a file of nearly the limit that imports one line.
    content = lines + b"\r\n" * ((5_000_000 - len(lines)) // 2)
    _choose(dialog, "large.csv", "text/csv", content)
    expect(dialog.get_by_test_id("chosen-file")).to_have_text("large.csv")
    expect(validate).to_be_enabled()
    assert uploads == []

    validate.click()
    expect(page.get_by_text("1 service updated.")).to_be_visible()
    expect(dialog).to_have_count(0)
    assert len(uploads) == 1
    page.get_by_label("Search services").fill("E2E-LARGE-FILE")
    expect(page.get_by_test_id("service-card")).to_have_count(1)
