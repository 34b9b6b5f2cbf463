"""Terminations of the services being or already terminated, with their documents."""

from portal.provider.demo_data.context import SeedContext
from portal.provider.models import ServiceStatus, Termination, TerminationDocument

_ENDING = (ServiceStatus.UNDER_TERMINATION, ServiceStatus.TERMINATED)


def build_terminations(context: SeedContext) -> None:
    """One termination per ending service, except that a customer sometimes ends two services
    of the same status with one order."""
    terminations: list[Termination] = []
    previous_key = None
    for service in context.services:
        if service.status not in _ENDING:
            continue
        key = (service.company_id, service.status)
        if key == previous_key and context.rng.random() < 0.35:
            terminations[-1].services.append(service)
            continue
        previous_key = key
        reference = f"RES-{service.date_termination:%Y}-{len(terminations) + 101:04d}"
        termination = Termination(
            id=context.new_id(),
            reference=reference,
            date=service.date_termination,
            services=[service],
        )
        termination.documents = [_document(context, f"termination-acknowledgement-{reference}.pdf")]
        if service.status is ServiceStatus.TERMINATED:
            termination.documents.append(_document(context, f"equipment-return-{reference}.pdf"))
        terminations.append(termination)
    context.session.add_all(terminations)
    context.session.flush()


def _document(context: SeedContext, filename: str) -> TerminationDocument:
    path = context.documents["termination"].path
    return TerminationDocument(id=context.new_id(), filename=filename, file_path=path)
