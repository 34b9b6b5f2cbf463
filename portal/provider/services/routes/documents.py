"""Documents of a service (spec 2, Service detail): handovers, LOAs and the order form.

A document is reached through its service, so the service's scope is the document's: another
company's service or document answers 404. The order form also needs access to Order.pdf.
"""

import uuid

from fastapi.responses import FileResponse
from sqlmodel import col, select

from portal.permissions import ACCESS_ORDER_PDF
from portal.provider.platform.db import SessionDep
from portal.provider.platform.downloads import attachment, file_answer
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import Service, ServiceDocument
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, through_visible_services
from portal.provider.platform.security import CurrentPrincipal
from portal.provider.services.queries import visible_services

router = ProviderRouter(prefix="/api/services", tags=["services"])


@router.get(
    "/{service_id:uuid}/documents/{document_id}",
    response_class=FileResponse,
    responses=file_answer(),
)
def download_document(
    service_id: uuid.UUID, document_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    """A handover or a letter of authorisation of the service."""
    statement = through_visible_services(
        select(ServiceDocument)
        .join(Service, col(Service.id) == col(ServiceDocument.service_id))
        .where(ServiceDocument.id == document_id, ServiceDocument.service_id == service_id),
        principal,
    )
    document = one_or_404(db, statement)
    return attachment(document.file_path, document.name, document.content_type)


@router.get(
    "/{service_id:uuid}/order_pdf",
    response_class=FileResponse,
    responses=file_answer("application/pdf"),
)
def download_order_form(
    service_id: uuid.UUID, db: SessionDep, principal: CurrentPrincipal
) -> FileResponse:
    """The order form (bon de commande) of the service; needs access to Order.pdf."""
    if not principal.allows(ACCESS_ORDER_PDF):
        raise ApiError(403)
    statement = visible_services(principal).where(Service.id == service_id)
    service = one_or_404(db, statement)
    name = service.order_pdf_name or f"{service.order_reference or service.reference}.pdf"
    return attachment(service.order_pdf_path, name, "application/pdf")
