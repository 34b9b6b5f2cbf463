"""The client-reference CSV (spec 5, DESIGN 6): reading an import, writing export cells.

Parsing is pure and checks everything a file can be wrong about on its own (encoding,
delimiter, header, blank or repeated references, lengths); whether each reference names a
service the user may see is the caller's question. Problems are collected per line, so the
whole report comes back at once and nothing is written unless every line is right.
"""

import csv
import io
from dataclasses import dataclass, field

from portal.client_references import (
    CLIENT_REFERENCE_MAX_LENGTH,
    CLIENT_REFERENCES_MAX,
    IMPORT_HEADER,
    REFERENCE_MAX_LENGTH,
    SEMICOLON_ONLY,
    split_client_references,
)
from portal.i18n import N_
from portal.provider.platform.errors import Violation
from portal.provider.platform.input_check import NOT_ALLOWED, has_control_characters

DELIMITER = ";"
UTF8_BOM = "\ufeff"
# Cells a spreadsheet would run as a formula (OWASP "CSV injection"), and the mark that
# neutralises them: a leading apostrophe, which the import takes off again.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NEUTRALISING_MARK = "'"

EMPTY_FILE = N_("The file is empty.")
NOT_UTF8 = N_("The file could not be read as text.")
NOT_CSV = N_("The file is not a valid CSV file.")
BAD_HEADER = N_("The first line must be the header reference;clientReferences.")
MISSING_REFERENCE = N_("The service reference is missing.")
REFERENCE_TOO_LONG = N_("The service reference must be {max} characters or less.")
CLIENT_REFERENCE_TOO_LONG = N_("Each client reference must be {max} characters or less.")
TOO_MANY_CLIENT_REFERENCES = N_("A service can have at most {max} client references.")
REPEATED_REFERENCE = N_("The service {reference} is already on line {line}.")


class CsvRejected(Exception):
    """The file as a whole cannot be read: a message for the ``file`` field."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ImportLine:
    number: int
    reference: str
    client_references: list[str]


@dataclass
class ParsedImport:
    lines: list[ImportLine] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)


def line_path(number: int) -> str:
    return f"line {number}"


def decode(content: bytes) -> str:
    """UTF-8 with or without a byte order mark; otherwise Windows-1252, the encoding in which
    Excel saves a "CSV (semicolon)" file in Western European settings."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return content.decode("cp1252")
        except UnicodeDecodeError as error:
            raise CsvRejected(NOT_UTF8) from error


def unneutralise(cell: str) -> str:
    """Undo the export's neutralising mark, so an exported file imports back unchanged."""
    if cell.startswith(NEUTRALISING_MARK) and cell[1:2] and cell[1:2] in FORMULA_STARTS:
        return cell[1:]
    return cell


def neutralise(cell: str) -> str:
    """A cell safe to open in a spreadsheet: formula starts are shown as text."""
    return NEUTRALISING_MARK + cell if cell.startswith(FORMULA_STARTS) else cell


def _check_header(row: list[str]) -> None:
    if len(row) == 1 and ("," in row[0] or "\t" in row[0]):
        raise CsvRejected(SEMICOLON_ONLY)
    header = tuple(cell.strip().casefold() for cell in row[: len(IMPORT_HEADER)])
    if header != tuple(name.casefold() for name in IMPORT_HEADER):
        raise CsvRejected(BAD_HEADER)


def _problem(row: list[str], seen: dict[str, int]) -> tuple[str, dict[str, object]] | None:
    """What is wrong with a data row on its own, if anything."""
    if len(row) < len(IMPORT_HEADER):
        return SEMICOLON_ONLY, {}
    reference = unneutralise(row[0].strip())
    client_references = split_client_references(
        unneutralise(row[1].strip()), limit=CLIENT_REFERENCES_MAX
    )
    if not reference:
        return MISSING_REFERENCE, {}
    if has_control_characters(reference) or any(map(has_control_characters, client_references)):
        return NOT_ALLOWED, {}  # as the same value sent as JSON (input_check)
    if len(reference) > REFERENCE_MAX_LENGTH:
        return REFERENCE_TOO_LONG, {"max": REFERENCE_MAX_LENGTH}
    if reference in seen:
        return REPEATED_REFERENCE, {"reference": reference, "line": seen[reference]}
    if any(len(item) > CLIENT_REFERENCE_MAX_LENGTH for item in client_references):
        return CLIENT_REFERENCE_TOO_LONG, {"max": CLIENT_REFERENCE_MAX_LENGTH}
    if len(client_references) > CLIENT_REFERENCES_MAX:
        return TOO_MANY_CLIENT_REFERENCES, {"max": CLIENT_REFERENCES_MAX}
    return None


def _read_line(number: int, row: list[str], seen: dict[str, int], parsed: ParsedImport) -> None:
    problem = _problem(row, seen)
    if problem is not None:
        message, params = problem
        parsed.violations.append(Violation(line_path(number), message, params))
        return
    reference = unneutralise(row[0].strip())
    seen[reference] = number
    client_references = split_client_references(unneutralise(row[1].strip()))
    parsed.lines.append(ImportLine(number, reference, client_references))


def parse_import(content: bytes) -> ParsedImport:
    """Every line of an import file, with the problems of the lines that are wrong. Raises
    ``CsvRejected`` for a file that is not a semicolon CSV with the template's header."""
    text = decode(content)
    if "\x00" in text:
        raise CsvRejected(NOT_CSV)  # a binary file renamed .csv
    if not text.strip():
        raise CsvRejected(EMPTY_FILE)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITER, strict=True)
    parsed = ParsedImport()
    seen: dict[str, int] = {}
    header_read = False
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue  # blank lines, such as the last one of many editors
            if not header_read:
                _check_header(row)
                header_read = True
                continue
            _read_line(reader.line_num, row, seen, parsed)
    except csv.Error as error:
        raise CsvRejected(NOT_CSV) from error
    if not parsed.lines and not parsed.violations:
        raise CsvRejected(EMPTY_FILE)  # nothing at all, or the header alone
    return parsed


def csv_lines(rows: list[list[str]]) -> str:
    """Exported lines, every cell neutralised and quoted as needed, CRLF-terminated."""
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=DELIMITER, lineterminator="\r\n").writerows(
        [neutralise(cell) for cell in cells] for cells in rows
    )
    return buffer.getvalue()
