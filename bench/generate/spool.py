"""Rows written once to temporary files in PostgreSQL's COPY text format, then streamed in.

Generating a service also yields its endpoints, attributes, milestones and documents; one COPY
runs at a time on a connection, so each table's rows go to a file of their own and are loaded
when the file is complete. Memory stays flat whatever the scale; the files take about the size
of the loaded tables' text (a few GB at scale 1) in the temporary directory.
"""

import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
CHUNK = 1 << 20


def _text(value: str) -> str:
    if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
        return value.translate(_ESCAPES)
    return value


def _json(value: Any) -> str:
    return _text(json.dumps(value, ensure_ascii=False))


# By exact type, one dictionary lookup per value (so a bool is never written as an int).
_FORMATS: dict[type, Callable[[Any], str]] = {
    str: _text,
    type(None): lambda _: "\\N",
    bool: lambda value: "t" if value else "f",
    int: str,
    float: repr,
    Decimal: str,
    # PostgreSQL reads a uuid as 32 hex digits as well; cheaper than the dashed form.
    uuid.UUID: lambda value: value.hex,
    date: date.isoformat,
    datetime: datetime.isoformat,
    list: _json,
    dict: _json,
}


def text_field(value: Any) -> str:
    """One value as COPY's text format spells it (``\\N`` for NULL)."""
    try:
        return _FORMATS[type(value)](value)
    except KeyError:
        raise TypeError(f"no COPY text form for {type(value).__name__}") from None


class Spool:
    """The rows of one table, in column order, on their way to ``COPY table (columns)``."""

    def __init__(self, folder: Path, table: str, columns: Sequence[str]) -> None:
        self.table = table
        self.columns = tuple(columns)
        self.path = folder / f"{table}.copy"
        self.rows = 0
        self._file: IO[str] = self.path.open("w", encoding="utf-8", newline="\n")

    def add(self, *values: Any) -> None:
        formats = _FORMATS
        self._file.write("\t".join([formats[type(value)](value) for value in values]) + "\n")
        self.rows += 1

    def close(self) -> None:
        self._file.close()

    def chunks(self) -> Iterator[bytes]:
        with self.path.open("rb") as source:
            while chunk := source.read(CHUNK):
                yield chunk
        self.path.unlink()
