"""Client references of services (spec 5): the edit field's list and the CSV import's rules.

Plain Python shared by the portal (which checks a chosen file before sending it) and the provider
(which checks it again and parses it), so neither accepts what the other refuses.
"""

from portal.i18n import N_

# The file chooser's rule (``rule.invalidCsvFile``) and the delimiter rule, word for word.
INVALID_CSV_FILE = N_("Only CSV files (.csv) are accepted.")
SEMICOLON_ONLY = N_("Only CSV files with a semicolon (;) delimiter are accepted.")

CSV_EXTENSION = ".csv"
CSV_MIME_TYPES = frozenset({"text/csv", "application/vnd.ms-excel", "application/octet-stream"})
# The template's header; an export starts with the same two columns, so it imports back.
IMPORT_HEADER = ("reference", "clientReferences")
TEMPLATE_FILENAME = "client-reference.csv"
EXPORT_FILENAME = "export_services.csv"

REFERENCE_MAX_LENGTH = 100
CLIENT_REFERENCE_MAX_LENGTH = 100
CLIENT_REFERENCES_MAX = 20


def is_csv_file(filename: str, content_type: str | None) -> bool:
    """The name ends in .csv and the type is one a browser gives a CSV file (parameters such
    as ``; charset=utf-8`` ignored); an absent type counts as ``application/octet-stream``."""
    media_type = (content_type or "application/octet-stream").split(";")[0].strip().lower()
    return filename.strip().lower().endswith(CSV_EXTENSION) and media_type in CSV_MIME_TYPES


def split_client_references(text: str, limit: int | None = None) -> list[str]:
    """``" a, b,,a "`` → ``["a", "b"]``: comma-separated, trimmed, without blanks or repeats.

    Linear in the length of the text (a 40 000-part text took 28 s when repeats were looked up
    in the list). With ``limit``, it stops after ``limit + 1`` references: enough to tell the
    caller there are too many, without splitting the rest."""
    references: dict[str, None] = {}
    for part in text.split(","):
        reference = part.strip()
        if reference:
            references.setdefault(reference)
            if limit is not None and len(references) > limit:
                break
    return list(references)


def join_client_references(references: list[str]) -> str:
    """The edit field's and the CSV cell's text of a list of client references."""
    return ", ".join(references)
