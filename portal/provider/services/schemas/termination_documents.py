"""Documents of the termination orders covering a service (spec 3: Termination document)."""

from pydantic import Field

from portal.provider.platform.hydra import Resource, iri
from portal.provider.platform.models import TerminationDocument


class TerminationDocumentOut(Resource):
    type: str = Field(default="TerminationDocument", alias="@type")
    filename: str
    download_url: str


def termination_document_out(document: TerminationDocument) -> TerminationDocumentOut:
    document_iri = iri("termination_documents", document.id)
    return TerminationDocumentOut(
        iri=document_iri,
        id=str(document.id),
        filename=document.filename,
        download_url=f"{document_iri}/file",
    )
