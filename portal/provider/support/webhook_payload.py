"""A ticket as a webhook event shows it to its company (issue 51): its item route's answer."""

import uuid
from typing import Any

from sqlmodel import Session

from portal.provider.platform.security import Principal
from portal.provider.support.routes.tickets import one_ticket_out


def render_ticket(db: Session, ticket_id: uuid.UUID, reader: Principal) -> dict[str, Any]:
    answer = one_ticket_out(db, reader, ticket_id, frozenset(), "en")
    return answer.model_dump(mode="json", by_alias=True)
