"""Lists of child rows read as JSON: the lists of a whole page of parent rows in one statement.

A service shows three lists (milestones, attributes, documents). Loaded as ORM objects they
took one statement each and most of a request's CPU time: the selectin loaders and the
instantiation of their rows were 15 % of the provider's time under load, and 6 of the 6.5 ms
of CPU that one service cost to read (issue 11, docs/decisions/json-lists.md). The database
builds the same lists as JSON arrays of objects for a fraction of that, and the response is
built from the plain lists and dicts that come out. One construct per SQL function, compiled
to PostgreSQL's ``json_build_object``/``json_agg`` or SQLite's ``json_object``/
``json_group_array``.

The values are JSON's: a date is an ISO string, a UUID a string (32 hex digits on SQLite), a
boolean ``true``/``false`` on PostgreSQL but ``1``/``0`` on SQLite; the API's pydantic models
read each of them as the type they declare. No order is promised inside a list (SQLite 3.40
has no ``ORDER BY`` inside an aggregate): the caller sorts.
"""

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Mapped
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import FunctionElement


class _JsonObject(FunctionElement[Any]):
    """A JSON object of alternating names and values."""

    type = sa.JSON()
    inherit_cache = True


class _JsonArrayOf(FunctionElement[Any]):
    """The aggregate of its argument over the rows, ``[]`` when there are none."""

    type = sa.JSON()
    inherit_cache = True


def _compile_as(element: type[FunctionElement[Any]], sql: str, *dialects: str) -> None:
    """``element`` written as ``sql`` with its arguments in place of ``{}`` on ``dialects``
    (every other dialect when none is named)."""

    def compile_element(element: FunctionElement[Any], compiler: SQLCompiler, **kw: Any) -> str:
        return sql.format(compiler.process(element.clauses, **kw))

    compiles(element, *dialects)(compile_element)


_compile_as(_JsonObject, "json_build_object({})", "postgresql")
_compile_as(_JsonObject, "json_object({})")
_compile_as(_JsonArrayOf, "coalesce(json_agg({}), '[]'::json)", "postgresql")
_compile_as(_JsonArrayOf, "json_group_array({})")


def json_list(
    fields: Mapping[str, ColumnElement[Any] | Mapped[Any]], *where: ColumnElement[bool]
) -> sa.ScalarSelect[Any]:
    """The rows that ``where`` selects (correlated to the enclosing statement's parent row),
    as a JSON array of objects with ``fields`` as names. The names are the code's own
    identifiers, written into the SQL as literals: PostgreSQL cannot type a bound parameter
    given to ``json_build_object``."""
    pairs: list[ColumnElement[Any] | Mapped[Any]] = []
    for name, column in fields.items():
        if not name.isidentifier():
            raise ValueError(f"not a field name: {name!r}")
        pairs += [sa.literal_column(f"'{name}'"), column]
    return sa.select(_JsonArrayOf(_JsonObject(*pairs))).where(*where).scalar_subquery()
