"""Folded search columns, kept in step with the rows they describe.

SQLite has no accent-insensitive comparison and PostgreSQL's ``unaccent`` is an extension, so
the searchable text of users, services and ticket subjects is stored folded (lower-case, accents
stripped) and filters compare it with the folded query. The columns are recomputed on every flush
of a new or changed row, so importers and the demo seed never have to remember them.
"""

import unicodedata
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

from portal.provider.platform.models.accounts import User
from portal.provider.platform.models.services import Endpoint, Service, ServiceType
from portal.provider.platform.models.support import Ticket


def fold(text: str) -> str:
    """``"Hélène  MARCHAND"`` → ``"helene marchand"``: case, accents and extra spaces removed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(stripped.split())


def _related(session: Session, instance: Any, relation: str, model: type, key: Any) -> Any:
    """A many-to-one target, whether assigned as an object or only as a foreign key."""
    assigned = sa.inspect(instance).attrs[relation].loaded_value
    if assigned is not None and assigned is not sa.orm.base.NO_VALUE:
        return assigned
    return session.get(model, key) if key is not None else None


# The endpoint fields a search finds, in every copy of the search text.
ENDPOINT_SEARCH_FIELDS = ("name", "street", "postal_code", "city")


def compose_service_search_text(
    reference: str,
    client_references: Iterable[str],
    type_labels: Iterable[str | None],
    endpoint_words: Iterable[str | None],
) -> str:
    """The folded search text of a service from its parts: the one recipe, used at every
    flush and by the bulk client-reference import, which writes rows without a flush."""
    words = [reference, *client_references, *type_labels, *endpoint_words]
    return fold(" ".join(word for word in words if word))


def _endpoint_words(endpoint: Endpoint | None) -> list[str | None]:
    if endpoint is None:
        return []
    return [getattr(endpoint, field) for field in ENDPOINT_SEARCH_FIELDS]


def service_search_text(session: Session, service: Service) -> str:
    service_type = _related(session, service, "type", ServiceType, service.type_id)
    endpoint_a = _related(session, service, "endpoint_a", Endpoint, service.endpoint_a_id)
    endpoint_b = _related(session, service, "endpoint_b", Endpoint, service.endpoint_b_id)
    return compose_service_search_text(
        service.reference,
        service.client_references,
        [service_type.label_en, service_type.label_fr] if service_type else [],
        [*_endpoint_words(endpoint_a), *_endpoint_words(endpoint_b)],
    )


def _changed(instance: Any, fields: Iterable[str]) -> bool:
    state = sa.inspect(instance)
    return any(state.attrs[field].history.has_changes() for field in fields)


def _services_seeing(session: Session, instances: Iterable[Any]) -> list[Service]:
    """Services already stored whose search text shows a changed endpoint or type label."""
    endpoint_ids = [
        item.id
        for item in instances
        if isinstance(item, Endpoint) and _changed(item, ENDPOINT_SEARCH_FIELDS)
    ]
    type_ids = [
        item.id
        for item in instances
        if isinstance(item, ServiceType) and _changed(item, ("label_en", "label_fr"))
    ]
    if not endpoint_ids and not type_ids:
        return []
    columns = sa.inspect(Service).columns
    statement = sa.select(Service).where(
        sa.or_(
            columns["endpoint_a_id"].in_(endpoint_ids),
            columns["endpoint_b_id"].in_(endpoint_ids),
            columns["type_id"].in_(type_ids),
        )
    )
    with session.no_autoflush:
        return list(session.scalars(statement))


@event.listens_for(Session, "before_flush")
def _refresh_search_columns(session: Session, _context: Any, _instances: Any) -> None:
    changed = (*session.new, *session.dirty)
    for instance in changed:
        if isinstance(instance, User):
            instance.email = instance.email.strip().lower()
            instance.search_name = fold(f"{instance.firstname} {instance.lastname}")
        elif isinstance(instance, Service):
            instance.search_text = service_search_text(session, instance)
        elif isinstance(instance, Ticket):
            instance.search_subject = fold(instance.subject)
    # An endpoint renamed or a type relabelled changes the search text of the services showing
    # it, though those services themselves did not change.
    for service in _services_seeing(session, session.dirty):
        service.search_text = service_search_text(session, service)
