"""Termination documents (spec 2 and 7): readable only through a service being or already
terminated that the reader may see; any other document answers 404."""

import uuid
from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import FileResponse

from portal.provider.platform.db import SessionDep
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.hydra import Collection, PaginationDep
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import TerminationDocument
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404
from portal.provider.platform.security import CurrentPrincipal
from portal.provider.services.queries import (
    TERMINATION_DOCUMENTS,
    TerminationDocumentFiltersDep,
    readable_termination_documents,
    through_ending_services,
)
from portal.provider.services.schemas.termination_documents import (
    TerminationDocumentOut,
    termination_document_out,
)

router = ProviderRouter(prefix="/api/termination_documents", tags=["services"])


@router.get("", response_model=Collection[TerminationDocumentOut])
def list_termination_documents(
    request: Request,
    db: SessionDep,
    principal: CurrentPrincipal,
    page: PaginationDep,
    filters: TerminationDocumentFiltersDep,
    sort: Annotated[Sort, Depends(TERMINATION_DOCUMENTS.sorting.read)],
) -> Collection[TerminationDocumentOut]:
    statement = filters.apply(through_ending_services())
    documents, total = TERMINATION_DOCUMENTS.page(db, principal, statement, sort, page)
    members = [termination_document_out(document) for document in documents]
    return TERMINATION_DOCUMENTS.answer(request, members, total, page)


@router.get("/{document_id}", response_model=TerminationDocumentOut)
def get_termination_document(
    document_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> TerminationDocumentOut:
    statement = readable_termination_documents(principal).where(
        TerminationDocument.id == document_id
    )
    return termination_document_out(one_or_404(db, statement))


@router.get("/{document_id}/file", response_class=FileResponse, responses=file_answer())
def download_termination_document(
    document_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    statement = readable_termination_documents(principal).where(
        TerminationDocument.id == document_id
    )
    document = one_or_404(db, statement)
    return attachment(document.file_path, document.filename)
