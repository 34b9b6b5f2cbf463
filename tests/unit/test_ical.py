"""The calendar feed's iCalendar writer: escaping, UTC times and folding (RFC 5545 3.1,
3.3.5, 3.3.11), each read back by the ``icalendar`` package as a calendar program would."""

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from icalendar import Calendar

from portal.provider.maintenances import ical


def _read_back(*lines: bytes) -> Any:
    """The event of these lines, as the ``icalendar`` package parses it."""
    written = b"".join(ical.component("VCALENDAR", ical.component("VEVENT", lines)))
    return next(iter(Calendar.from_ical(written).walk("VEVENT")))


def test_text_escapes_what_rfc_5545_reserves() -> None:
    value = "a\\b;c,d\ne\r\nf\rg"
    assert ical.text(value) == "a\\\\b\\;c\\,d\\ne\\nf\\ng"
    assert str(_read_back(ical.line("COMMENT", ical.text(value)))["comment"]) == (
        "a\\b;c,d\ne\nf\ng"
    )


def test_times_are_written_in_utc() -> None:
    paris = timezone(timedelta(hours=1))
    assert ical.utc(datetime(2026, 11, 29, 15, 30, tzinfo=paris)) == "20261129T143000Z"
    assert ical.utc(datetime(2026, 11, 29, 14, 30)) == "20261129T143000Z"  # naive: UTC


def test_a_short_line_is_kept_whole() -> None:
    assert ical.line("SUMMARY", "x" * 65) == b"SUMMARY:" + b"x" * 65 + b"\r\n"


def test_long_lines_fold_before_the_75th_octet_and_read_back_whole() -> None:
    value = "Déviation de la fibre Londres–Slough · " * 8  # two- and three-octet characters
    written = ical.line("DESCRIPTION", ical.text(value))
    physical = written.removesuffix(b"\r\n").split(b"\r\n")
    assert len(physical) > 4
    assert all(len(part) <= 75 for part in physical)  # the leading space included
    assert all(part.startswith(b" ") for part in physical[1:])
    assert str(_read_back(written)["description"]) == value


def test_a_fold_never_cuts_a_character_in_two() -> None:
    # "DESCRIPTION:" and 61 letters are 73 octets: the dash's three would end past the 74th.
    value = "x" * 61 + "–" + "y" * 20
    written = ical.line("DESCRIPTION", ical.text(value))
    first, second = written.split(b"\r\n ")
    assert first == b"DESCRIPTION:" + b"x" * 61
    assert second.startswith("–".encode())
    assert str(_read_back(written)["description"]) == value


def test_a_fold_never_parts_an_escape_from_its_character() -> None:
    # "SUMMARY:" and 65 letters are 73 octets: the backslash of "\," would be the 74th.
    value = "y" * 65 + ","
    written = ical.line("SUMMARY", ical.text(value))
    first, second = written.split(b"\r\n ")[:2]
    assert not first.endswith(b"\\")
    assert second.startswith(b"\\,")
    assert str(_read_back(written)["summary"]) == value


def test_a_utc_moment_reads_back_as_itself() -> None:
    moment = datetime(2026, 12, 24, 22, 0, tzinfo=UTC)
    assert _read_back(ical.line("DTSTART", ical.utc(moment))).decoded("dtstart") == moment


def test_parameter_values_are_quoted_and_escaped_as_rfc_6868_says() -> None:
    assert ical.param("ACME-1") == "ACME-1"
    assert ical.param("core, Paris") == '"core, Paris"'
    assert ical.param('say "hi"\nthere ^') == "say ^'hi^'^nthere ^^"
    values = ",".join(ical.param(value) for value in ("a;b", 'q"x', "é"))
    line = ical.line(f"X-MAINTNOTE-OBJECT-ID;X-CLIENT-REFERENCE={values}", "PB-1")
    read = _read_back(line)["X-MAINTNOTE-OBJECT-ID"]
    assert str(read) == "PB-1"
    assert read.params["X-CLIENT-REFERENCE"] == ["a;b", 'q"x', "é"]
