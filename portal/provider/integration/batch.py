"""A batch of one kind, all or nothing: every object validated (fields, then references looked
up in bulk) before the first write, then written in the caller's one transaction.

Each kind (``portal.provider.integration.kinds``) gives its input model, its limit per batch and
two functions: ``check`` resolves the references of the whole batch at once and answers the
violations, ``write`` upserts with what ``check`` resolved and answers the counts.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import Field, ValidationError
from sqlmodel import Session

from portal.i18n import N_
from portal.provider.integration.common import Counts, InputModel
from portal.provider.platform.errors import ApiError, Violation, validation_error
from portal.provider.platform.hydra import ApiModel
from portal.validation import INVALID_EMAIL

M = TypeVar("M", bound=InputModel)
# The objects of a batch that passed field validation, with their index in the batch.
Entries = list[tuple[int, M]]

TOO_MANY = N_("A batch may hold at most {max} objects of this kind.")
NOT_A_LIST = N_("The body must be a JSON array of objects.")
INVALID_BATCH = N_("The batch is not valid: nothing was written.")
UNKNOWN_FIELD = N_("No such field: the API reference lists the fields of each kind.")
NO_CREDENTIALS = N_(
    "Passwords and second factors never go through the integration API: each user sets their own."
)
# An unknown field that looks like a credential gets the reason it will never be one.
_CREDENTIAL = re.compile(r"password|passwd|secret|second.?factor|totp|otp|mfa|2fa|recovery", re.I)
# A batch of 50 000 samples for an unknown sensor would list 50 000 times the same problem.
MAX_VIOLATIONS = 1_000


@dataclass(frozen=True)
class Kind(Generic[M]):
    """One kind of object the integration API loads."""

    name: str  # in JSON Lines files and the audit log: ``company``
    path: str  # in URLs: ``companies``
    model: type[M]
    limit: int
    check: Callable[[Session, Entries[M]], tuple[Any, list[Violation]]]
    write: Callable[[Session, Entries[M], Any], Counts]
    summary: str
    description: str
    example: list[dict[str, Any]]


class BatchResult(ApiModel):
    kind: str = Field(description="The kind of the batch, as in its URL.")
    received: int = Field(description="Objects in the batch.")
    created: int
    updated: int
    unchanged: int = Field(description="Objects already stored exactly as sent.")


def _location(parts: Sequence[int | str]) -> str:
    """``("lines", 0, "amount")`` → ``lines[0].amount``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.removeprefix(".")


def field_violations(index: int, error: ValidationError) -> list[Violation]:
    """pydantic's errors for the object at ``index``, as violations on ``[index].field``."""
    violations = []
    for detail in error.errors():
        location = _location(detail["loc"])
        prefix = f"[{index}]" + (f".{location}" if location else "")
        if detail["type"] == "invalid_email":
            violations.append(Violation(prefix, INVALID_EMAIL))
            continue
        if detail["type"] == "extra_forbidden":
            credential = _CREDENTIAL.search(str(detail["loc"][-1]))
            violations.append(Violation(prefix, NO_CREDENTIALS if credential else UNKNOWN_FIELD))
            continue
        # The API's one mapping from pydantic's error types to messages.
        translated = validation_error([{**detail, "loc": ("body", "field")}]).violations[0]
        violations.append(Violation(prefix, translated.message, translated.params))
    return violations


def parse(kind: Kind[M], raw: Sequence[Any]) -> tuple[Entries[M], list[Violation]]:
    entries: Entries[M] = []
    violations: list[Violation] = []
    for index, item in enumerate(raw):
        try:
            entries.append((index, kind.model.model_validate(item)))
        except ValidationError as error:
            violations += field_violations(index, error)
    return entries, violations


def upsert(db: Session, kind: Kind[M], raw: Any) -> BatchResult:
    """Validate the whole batch, then write it into ``db`` (the caller commits). Raises a 413
    over the kind's limit and a 422 listing the violations (the first ``MAX_VIOLATIONS``, in
    the batch's order), having written nothing."""
    if not isinstance(raw, list):
        raise ApiError(422, NOT_A_LIST, violations=[Violation("", NOT_A_LIST)])
    if len(raw) > kind.limit:
        raise ApiError(413, TOO_MANY, max=kind.limit)
    entries, violations = parse(kind, raw)
    resolved, reference_violations = kind.check(db, entries)
    violations += reference_violations
    if violations:
        violations = sorted(violations, key=_order)[:MAX_VIOLATIONS]
        raise ApiError(422, INVALID_BATCH, violations=violations)
    counts = kind.write(db, entries, resolved)
    db.flush()
    return BatchResult(
        kind=kind.path,
        received=len(raw),
        created=counts.created,
        updated=counts.updated,
        unchanged=counts.unchanged,
    )


def _order(violation: Violation) -> tuple[int, str]:
    """Violations in the order of the batch, then by field."""
    index, _, field = violation.property_path.removeprefix("[").partition("]")
    return (int(index) if index.isdigit() else -1, field)
