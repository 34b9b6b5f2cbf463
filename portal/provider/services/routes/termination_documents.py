"""Termination documents (spec 2 and 7): readable only through a service being or already
terminated that the reader may see; any other document answers 404."""

import uuid
from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import FileResponse
from sqlmodel import col, select
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.db import SessionDep
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.hydra import Collection, PaginationDep, collection
from portal.provider.platform.lists import paginate
from portal.provider.platform.models import (
    Service,
    ServiceStatus,
    TerminationDocument,
    TerminationService,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, through_visible_services
from portal.provider.platform.security import CurrentPrincipal, Principal
from portal.provider.services.schemas.termination_documents import (
    TerminationDocumentOut,
    termination_document_out,
)

router = ProviderRouter(prefix="/api/termination_documents", tags=["services"])

ENDING_STATUSES = (ServiceStatus.UNDER_TERMINATION, ServiceStatus.TERMINATED)


def _readable_documents(
    principal: Principal, service_id: uuid.UUID | None = None
) -> SelectOfScalar[TerminationDocument]:
    """Documents of terminations covering a visible service that is ending or ended."""
    services = through_visible_services(
        select(TerminationService.termination_id)
        .join(Service, col(Service.id) == col(TerminationService.service_id))
        .where(col(Service.status).in_(ENDING_STATUSES)),
        principal,
    )
    if service_id is not None:
        services = services.where(Service.id == service_id)
    return select(TerminationDocument).where(col(TerminationDocument.termination_id).in_(services))


@router.get("", response_model=Collection[TerminationDocumentOut])
def list_termination_documents(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    service_uuid: Annotated[
        uuid.UUID | None,
        Query(alias="termination.services.uuid", description="A service's id."),
    ] = None,
) -> Collection[TerminationDocumentOut]:
    statement = _readable_documents(principal, service_uuid).order_by(
        col(TerminationDocument.filename), col(TerminationDocument.id)
    )
    documents, total = paginate(db, statement, page)
    members = [termination_document_out(document) for document in documents]
    return collection(request, "TerminationDocument", members, total, page)


@router.get("/{document_id}", response_model=TerminationDocumentOut)
def get_termination_document(
    document_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> TerminationDocumentOut:
    statement = _readable_documents(principal).where(TerminationDocument.id == document_id)
    return termination_document_out(one_or_404(db, statement))


@router.get("/{document_id}/file", response_class=FileResponse, responses=file_answer())
def download_termination_document(
    document_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    statement = _readable_documents(principal).where(TerminationDocument.id == document_id)
    document = one_or_404(db, statement)
    return attachment(document.file_path, document.filename)
