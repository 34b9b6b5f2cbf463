"""Folded search columns, kept in step with the rows they describe.

SQLite has no accent-insensitive comparison and PostgreSQL's ``unaccent`` is an extension, so
the searchable text of users and services is stored folded (lower-case, accents stripped) and
filters compare it with the folded query. The columns are recomputed on every flush of a new or
changed row, so importers and the demo seed never have to remember them.
"""

import unicodedata
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session

from portal.provider.models.accounts import User
from portal.provider.models.services import Endpoint, Service, ServiceType


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


def _endpoint_words(endpoint: Endpoint | None) -> list[str]:
    if endpoint is None:
        return []
    return [endpoint.name, endpoint.street or "", endpoint.postal_code or "", endpoint.city or ""]


def service_search_text(session: Session, service: Service) -> str:
    service_type = _related(session, service, "type", ServiceType, service.type_id)
    words = [service.reference, *service.client_references]
    if service_type is not None:
        words += [service_type.label_en, service_type.label_fr]
    words += _endpoint_words(
        _related(session, service, "endpoint_a", Endpoint, service.endpoint_a_id)
    )
    words += _endpoint_words(
        _related(session, service, "endpoint_b", Endpoint, service.endpoint_b_id)
    )
    return fold(" ".join(word for word in words if word))


@event.listens_for(Session, "before_flush")
def _refresh_search_columns(session: Session, _context: Any, _instances: Any) -> None:
    for instance in (*session.new, *session.dirty):
        if isinstance(instance, User):
            instance.email = instance.email.strip().lower()
            instance.search_name = fold(f"{instance.firstname} {instance.lastname}")
        elif isinstance(instance, Service):
            instance.search_text = service_search_text(session, instance)
