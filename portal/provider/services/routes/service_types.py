"""Service types (spec 3 and 7): the whole catalogue at once, labelled in the reader's language.

The catalogue is short (about 45 types) and read to fill a filter, so the collection is never
paged: ``page`` and ``itemsPerPage`` are accepted and ignored, and every type comes in one page.
"""

import uuid

from fastapi import Request
from sqlmodel import col, select

from portal.provider.platform.db import SessionDep, planned_once
from portal.provider.platform.hydra import Collection, Pagination, collection
from portal.provider.platform.language import LanguageDep
from portal.provider.platform.models import ServiceType
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404
from portal.provider.platform.security import CurrentPrincipal
from portal.provider.services.schemas.services import ServiceTypeOut, service_type_out

router = ProviderRouter(prefix="/api/service_types", tags=["services"])


@router.get("", response_model=Collection[ServiceTypeOut])
def list_service_types(
    request: Request, db: SessionDep, _principal: CurrentPrincipal, language: LanguageDep
) -> Collection[ServiceTypeOut]:
    # The whole catalogue, the same for everyone: one plan serves every request.
    statement = select(ServiceType).order_by(col(ServiceType.position), col(ServiceType.key))
    rows = db.exec(planned_once(statement))
    members = [service_type_out(service_type, language) for service_type in rows]
    page = Pagination(page=1, items_per_page=max(1, len(members)))
    return collection(request, "ServiceType", members, len(members), page)


@router.get("/{type_id}", response_model=ServiceTypeOut)
def get_service_type(
    type_id: uuid.UUID, db: SessionDep, _principal: CurrentPrincipal, language: LanguageDep
) -> ServiceTypeOut:
    # Types are the provider's public catalogue: every signed-in user reads every type.
    statement = select(ServiceType).where(ServiceType.id == type_id)
    return service_type_out(one_or_404(db, statement), language)
