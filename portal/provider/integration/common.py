"""What every kind of the integration API shares: input types, counts, bulk look-ups and the
messages of its violations.

A batch is a list of objects; a violation's ``propertyPath`` is ``[index].field`` (``[3].company``)
so the sender finds the line at once. Optional fields that an object leaves out keep their stored
value on update (and their default on creation); a field that is sent is set, lists replaced whole.
"""

import uuid
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, ConfigDict, StringConstraints
from pydantic_core import PydanticCustomError
from sqlalchemy.orm import InstrumentedAttribute
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.provider.platform.errors import Violation
from portal.provider.platform.hydra import ISO_8601, ApiModel
from portal.validation import EMAIL_MAX_LENGTH, is_email

T = TypeVar("T")
Row = TypeVar("Row")

UNKNOWN_REFERENCE = N_("Nothing has the reference {reference}.")
UNKNOWN_EMAIL = N_("No user has the e-mail {email}.")
DUPLICATE_IN_BATCH = N_("{value} appears more than once in the batch.")
# Look-ups by many keys go in chunks, within every database's limit of bound parameters.
_CHUNK = 500


def as_utc(value: datetime) -> datetime:
    """A time without a zone is taken as UTC; the database stores UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


UtcDateTime = Annotated[datetime, ISO_8601, AfterValidator(as_utc)]
Reference = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


def _email(value: str) -> str:
    if not is_email(value):
        raise PydanticCustomError("invalid_email", "Invalid email")
    return value.lower()


Email = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=EMAIL_MAX_LENGTH),
    AfterValidator(_email),
]


# Trimmed text; the length limit goes on the field (``Field(max_length=200)``).
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
OptionalText = Annotated[str, StringConstraints(strip_whitespace=True)] | None


class InputModel(ApiModel):
    """An object of a batch: camelCase, and an unknown field is an error rather than ignored."""

    model_config = ConfigDict(extra="forbid")

    def given(self, name: str) -> bool:
        """Whether the sender set the field (an absent optional field leaves the row as is)."""
        return name in self.model_fields_set

    def values(self, *names: str) -> dict[str, Any]:
        """The fields among ``names`` that the sender set, by name."""
        return {name: getattr(self, name) for name in names if self.given(name)}


@dataclass
class Counts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    def add(self, created: bool, changed: bool) -> None:
        if created:
            self.created += 1
        elif changed:
            self.updated += 1
        else:
            self.unchanged += 1


def path(index: int, field: str | None = None) -> str:
    return f"[{index}].{field}" if field else f"[{index}]"


def assign(row: object, values: dict[str, Any]) -> bool:
    """Set the attributes that differ; answers whether any did."""
    changed = False
    for name, value in values.items():
        if getattr(row, name) != value:
            setattr(row, name, value)
            changed = True
    return changed


def upsert_row(model: type[Row], row: Row | None, values: dict[str, Any]) -> tuple[Row, bool, bool]:
    """``row`` brought to ``values``, or a new row of ``model`` made of them; answers the row,
    whether it is new and whether anything changed."""
    if row is None:
        return model(**values), True, True
    return row, False, assign(row, values)


def chunks(values: Sequence[T], size: int = _CHUNK) -> Iterable[Sequence[T]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def rows_by(
    db: Session,
    column: InstrumentedAttribute[Any] | Any,
    keys: Iterable[Hashable],
    options: Sequence[Any] = (),
) -> dict[Any, Any]:
    """The rows of ``column``'s table whose ``column`` is one of ``keys``, by that value;
    ``options`` preload relationships (``portal.provider.platform.db.preload``)."""
    wanted = sorted({key for key in keys if key is not None}, key=str)
    model = column.class_
    found: dict[Any, Any] = {}
    for part in chunks(wanted):
        statement = select(model).where(col(column).in_(part)).options(*options)
        for row in db.exec(statement).all():
            found[getattr(row, column.key)] = row
    return found


def ids_by(
    db: Session, column: InstrumentedAttribute[Any] | Any, keys: Iterable[Hashable]
) -> dict[Any, uuid.UUID]:
    """Like ``rows_by`` but only the ids: cheaper where the rows themselves are not needed."""
    wanted = sorted({key for key in keys if key is not None}, key=str)
    model = column.class_
    found: dict[Any, uuid.UUID] = {}
    for part in chunks(wanted):
        statement = select(col(column), model.id).where(col(column).in_(part))
        for key, row_id in db.exec(statement).all():
            found[key] = row_id
    return found


def duplicates(
    entries: Sequence[tuple[int, T]], key: Callable[[T], Hashable], field: str
) -> list[Violation]:
    """A violation on every object repeating a key that an earlier object of the batch holds;
    ``entries`` are the objects with their index in the batch."""
    seen: set[Hashable] = set()
    violations = []
    for index, item in entries:
        value = key(item)
        if value is None:
            continue
        if value in seen:
            violations.append(Violation(path(index, field), DUPLICATE_IN_BATCH, {"value": value}))
        seen.add(value)
    return violations


def unknown(
    index: int, field: str, value: str, known: dict[Any, Any] | set[Any], *, email: bool = False
) -> list[Violation]:
    """A violation when ``value`` is not among the ``known`` references (or e-mails)."""
    if value in known:
        return []
    if email:
        return [Violation(path(index, field), UNKNOWN_EMAIL, {"email": value})]
    return [Violation(path(index, field), UNKNOWN_REFERENCE, {"reference": value})]
