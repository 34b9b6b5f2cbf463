"""The database side of a client-reference import: which references the user may change, and
the one transaction that writes them all.

References are looked up a thousand at a time (not one query per line), with what the search
text is made of, so that each row is written with one bulk UPDATE and its search text in step.
"""

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import update
from sqlalchemy.orm import aliased
from sqlmodel import Session, col

from portal.i18n import N_
from portal.provider.platform.errors import Violation
from portal.provider.platform.models import Endpoint, Service, ServiceType
from portal.provider.platform.models.search import (
    ENDPOINT_SEARCH_FIELDS,
    compose_service_search_text,
)
from portal.provider.platform.scoping import service_condition
from portal.provider.platform.security import Principal
from portal.provider.services.client_reference_csv import ImportLine, ParsedImport, line_path

UNKNOWN_REFERENCE = N_("There is no service with the reference {reference}.")
LOOKUP_BATCH = 1000

_ENDPOINT_A = aliased(Endpoint)
_ENDPOINT_B = aliased(Endpoint)


def _batches(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _lookup(db: Session, principal: Principal, references: Sequence[str]) -> dict[str, Any]:
    """The visible services among ``references``, by reference, with their search words."""
    endpoint_columns = [
        getattr(endpoint, field).label(f"{prefix}_{field}")
        for prefix, endpoint in (("a", _ENDPOINT_A), ("b", _ENDPOINT_B))
        for field in ENDPOINT_SEARCH_FIELDS
    ]
    found: dict[str, Any] = {}
    for batch in _batches(references, LOOKUP_BATCH):
        # Several columns of several tables: SQLAlchemy's select, typed loosely by sqlmodel.
        statement: Any = (
            sa.select(
                col(Service.id),
                col(Service.reference),
                col(ServiceType.label_en),
                col(ServiceType.label_fr),
                *endpoint_columns,
            )
            .join(ServiceType, col(ServiceType.id) == col(Service.type_id))
            .outerjoin(_ENDPOINT_A, col(_ENDPOINT_A.id) == col(Service.endpoint_a_id))
            .outerjoin(_ENDPOINT_B, col(_ENDPOINT_B.id) == col(Service.endpoint_b_id))
            .where(col(Service.reference).in_(batch))
            .where(service_condition(principal, Service.company_id, Service.id))
        )
        for row in db.exec(statement):
            found[row.reference] = row
    return found


def _search_text(row: Any, line: ImportLine) -> str:
    endpoint_words = [
        getattr(row, f"{prefix}_{field}") for prefix in "ab" for field in ENDPOINT_SEARCH_FIELDS
    ]
    return compose_service_search_text(
        row.reference, line.client_references, [row.label_en, row.label_fr], endpoint_words
    )


def write_client_references(
    db: Session, principal: Principal, parsed: ParsedImport
) -> list[Violation]:
    """Every problem of the import in line order; when there is none, the new client references
    written in ``db``'s transaction (the caller commits)."""
    found = _lookup(db, principal, [line.reference for line in parsed.lines])
    unknown = [
        Violation(line_path(line.number), UNKNOWN_REFERENCE, {"reference": line.reference})
        for line in parsed.lines
        if line.reference not in found
    ]
    violations = sorted(
        [*parsed.violations, *unknown], key=lambda violation: _line_number(violation)
    )
    if violations or not parsed.lines:
        return violations
    rows: list[dict[str, Any]] = [
        {
            "id": uuid.UUID(str(found[line.reference].id)),
            "client_references": line.client_references,
            "search_text": _search_text(found[line.reference], line),
        }
        for line in parsed.lines
    ]
    db.exec(update(Service), params=rows)
    return []


def _line_number(violation: Violation) -> int:
    return int(violation.property_path.rsplit(" ", 1)[-1])
