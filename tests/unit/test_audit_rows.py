"""The audit table's rows (issue 47, item 17): what anyone typed (the e-mail of a failed login)
is shown with its invisible characters written out, and an entry that counts a flood of
refusals says how many."""

import datetime as dt

import pytest

from portal.client.models import AuditEntry
from portal.components.audit.models import AuditRow, visible


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("eve@mail.com", "eve@mail.com"),
        ("hélène.élan@acme-networks.test", "hélène.élan@acme-networks.test"),
        ("مدير@example.test", "مدير@example.test"),  # right-to-left letters are shown as they are
        ("\u202emoc.liam@eve", "<U+202E>moc.liam@eve"),  # right-to-left override
        ("a\u202ab\u202bc\u202cd\u202de", "a<U+202A>b<U+202B>c<U+202C>d<U+202D>e"),
        ("\u2066x\u2067y\u2068z\u2069", "<U+2066>x<U+2067>y<U+2068>z<U+2069>"),  # isolates
        ("\u200ea\u200fb\u061cc", "<U+200E>a<U+200F>b<U+061C>c"),  # marks
        ("ad\u200bmin@patchbay.test", "ad<U+200B>min@patchbay.test"),  # zero width space
        ("a\nlogin: admin", "a<U+000A>login: admin"),  # C0: a forged second line
        ("\x1b[31mred", "<U+001B>[31mred"),
        ("a\x85b\x9bc", "a<U+0085>b<U+009B>c"),  # C1
        ("a\u2028b\u2029c", "a<U+2028>b<U+2029>c"),  # line and paragraph separators
    ],
)
def test_invisible_characters_are_written_out(typed: str, shown: str) -> None:
    assert visible(typed) == shown


def test_every_text_of_a_row_is_shown_plainly() -> None:
    entry = AuditEntry(
        id="1",
        at=dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC),
        action="login_failed",
        actor_email="\u202emoc.knab@eve",
        subject_email="bob\u200f@example.test",
        impersonator_email="\u2066admin@patchbay.test",
        client_address="198.51.100.7",
        detail={"note": "line\nbreak"},
    )
    row = AuditRow.of(entry, "en", "UTC")
    assert row.action == "Failed login"
    assert row.actor == "<U+202E>moc.knab@eve"
    assert row.subject == "bob<U+200F>@example.test"
    assert row.impersonator == "<U+2066>admin@patchbay.test"
    assert row.detail == "note: line<U+000A>break"
    assert row.times == ""


@pytest.mark.parametrize(
    ("language", "times"), [("en", "9,990 attempts"), ("fr", "9\u202f990 tentatives")]
)
def test_an_entry_counting_a_flood_says_how_many(language: str, times: str) -> None:
    entry = AuditEntry(id="2", action="login_throttled", client_address="203.0.113.9", count=9990)
    row = AuditRow.of(entry, language, "UTC")
    assert row.times == times
    assert row.actor == ""


@pytest.mark.parametrize(
    ("action", "language", "label"),
    [
        ("ticket.open", "en", "Ticket opened"),
        ("ticket.close", "fr", "Ticket fermé"),
        ("ticket.reopen", "fr", "Ticket rouvert"),
    ],
)
def test_the_ticket_writes_have_their_labels(action: str, language: str, label: str) -> None:
    entry = AuditEntry(id="3", action=action, detail={"ticket": "P-1000000"})
    assert AuditRow.of(entry, language, "UTC").action == label


def test_the_details_are_labelled_in_the_readers_language() -> None:
    entry = AuditEntry(
        id="3", action="integration.tickets", detail={"token_name": "Helpdesk", "received": "2"}
    )
    assert AuditRow.of(entry, "en", "UTC").detail == "Received: 2 · Token name: Helpdesk"
    assert AuditRow.of(entry, "fr", "UTC").detail == "Reçus : 2 · Nom du jeton : Helpdesk"
