"""The client-reference CSV rules (spec 5) as plain functions: file type, reference lists,
formula neutralisation and the parser's per-line report."""

import pytest

from portal.client_references import is_csv_file, join_client_references, split_client_references
from portal.provider.services.client_reference_csv import (
    CsvRejected,
    csv_lines,
    neutralise,
    parse_import,
    unneutralise,
)


@pytest.mark.parametrize(
    ("filename", "content_type", "accepted"),
    [
        ("refs.csv", "text/csv", True),
        ("REFS.CSV", "text/csv; charset=utf-8", True),
        ("refs.csv", "application/vnd.ms-excel", True),
        ("refs.csv", "application/octet-stream", True),
        ("refs.csv", None, True),
        ("refs.csv", "application/pdf", False),
        ("refs.csv.exe", "text/csv", False),
        ("refs.txt", "text/csv", False),
        ("refs", "text/csv", False),
    ],
)
def test_a_csv_file_is_known_by_its_name_and_type(
    filename: str, content_type: str | None, accepted: bool
) -> None:
    assert is_csv_file(filename, content_type) is accepted


def test_references_are_split_on_commas_trimmed_without_blanks_or_repeats() -> None:
    assert split_client_references(" a, b,,a , c ") == ["a", "b", "c"]
    assert split_client_references("") == []
    assert join_client_references(["a", "b"]) == "a, b"


@pytest.mark.parametrize("cell", ["=1+1", "+33", "-2", "@SUM(A1)", "\tx", "\rx"])
def test_formula_cells_are_neutralised_and_restored(cell: str) -> None:
    assert neutralise(cell) == "'" + cell
    assert unneutralise(neutralise(cell)) == cell


@pytest.mark.parametrize("cell", ["ACME-1", "'quoted", "", "a=b"])
def test_other_cells_are_left_alone(cell: str) -> None:
    assert neutralise(cell) == cell
    assert unneutralise(cell) == cell


def test_an_exported_line_quotes_what_needs_quoting() -> None:
    assert csv_lines([["A;B", 'say "hi"', "=x"]]) == '"A;B";"say ""hi""";\'=x\r\n'


def test_the_parser_reports_lines_by_their_number_in_the_file() -> None:
    parsed = parse_import(b'reference;clientReferences\r\nA;"x,\r\ny"\r\n;z\r\nB;w\r\n')
    assert [(line.number, line.reference, line.client_references) for line in parsed.lines] == [
        (3, "A", ["x", "y"]),
        (5, "B", ["w"]),
    ]
    assert [violation.property_path for violation in parsed.violations] == ["line 4"]


def test_a_header_alone_is_an_empty_file() -> None:
    with pytest.raises(CsvRejected) as rejected:
        parse_import(b"reference;clientReferences\n\n")
    assert rejected.value.message == "The file is empty."
