"""Terminations of the services being or already terminated, with their documents."""

from portal.provider.demo_data.context import SeedContext
from portal.provider.platform.models import ServiceStatus, Termination, TerminationDocument

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
        filenames = [f"termination-acknowledgement-{reference}.pdf"]
        if service.status is ServiceStatus.TERMINATED:
            filenames.append(f"equipment-return-{reference}.pdf")
        termination.documents = [_document(context, termination, name) for name in filenames]
        terminations.append(termination)
    context.session.add_all(terminations)
    context.session.flush()


def _document(context: SeedContext, termination: Termination, filename: str) -> TerminationDocument:
    return TerminationDocument(
        id=context.new_id(),
        termination_id=termination.id,
        filename=filename,
        file_path=context.documents["termination"].path,
    )
