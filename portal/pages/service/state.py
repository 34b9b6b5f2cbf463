"""A service's page (spec 2, Service detail), loaded from the id of the URL, with its
maintenances and, for invoice readers, its invoices; a missing one stops there: no breadcrumbs,
no further calls."""

from collections.abc import Sequence

import reflex as rx
from reflex.event import EventSpec

from portal.client import ProviderClient
from portal.client.models import InvoiceFilters, MaintenanceFilters
from portal.client_references import CLIENT_REFERENCES_MAX, split_client_references
from portal.components.invoices.state import InvoiceList
from portal.components.maintenances.state import MaintenanceList
from portal.i18n import gettext
from portal.pages.service.models import ServiceDetail
from portal.permissions import ACCESS_INVOICES, MANAGE_SERVICE_REFERENCES
from portal.state.failures import reports_failures
from portal.state.item_page import ItemPageState
from portal.state.messages import MessagesState
from portal.state.session import SessionState

SERVICE_INCLUDES = ("order", "company", "type")


class ServiceMaintenancesState(MaintenanceList, SessionState):
    in_address = False

    @rx.event
    @reports_failures
    async def show_for_service(self, reference: str):
        async for update in self._open_with(MaintenanceFilters(service_reference=reference)):
            yield update


class ServiceInvoicesState(InvoiceList, SessionState):
    in_address = False

    @rx.event
    @reports_failures
    async def show_for_service(self, uuid: str):
        async for update in self._open_with(InvoiceFilters(service_uuid=uuid)):
            yield update


class ServiceState(ItemPageState, SessionState):
    service: rx.Field[ServiceDetail] = rx.field(default_factory=ServiceDetail)
    references_text: rx.Field[str] = rx.field("")
    saving: rx.Field[bool] = rx.field(False)

    def _shown_id(self) -> str:
        return self.service.id

    def _show(self, item: ServiceDetail | None) -> None:
        self.service = item or ServiceDetail()
        self.references_text = ", ".join(self.service.client_references)

    async def _fetch(self, client: ProviderClient, item_id: str) -> ServiceDetail:
        language = self.current_language
        found = await client.services.get(item_id, includes=SERVICE_INCLUDES)
        service = ServiceDetail.of(found, language)
        if service.is_terminating:
            documents = await client.termination_documents.for_service(service.id)
            service = service.with_terminations(documents)
        return service

    def _then(self) -> Sequence[EventSpec]:
        tables = [ServiceMaintenancesState.show_for_service(self.service.reference)]
        if self._holds(ACCESS_INVOICES):
            tables.append(ServiceInvoicesState.show_for_service(self.service.id))
        return tables

    @rx.event
    def set_references_text(self, value: str):
        self.references_text = value

    @rx.event
    @reports_failures
    async def save_references(self):
        """Replaces the client references with the field's comma-separated list (spec 5)."""
        if not self._holds(MANAGE_SERVICE_REFERENCES):
            return
        self.saving = True
        yield
        text = ", ".join(split_client_references(self.references_text, limit=CLIENT_REFERENCES_MAX))
        try:
            client = await self.provider()
            updated = await client.services.update_client_references(self.service.reference, text)
        finally:
            self.saving = False
        references = list(updated.client_references)
        self.service = self.service.model_copy(update={"client_references": references})
        self.references_text = ", ".join(references)
        messages = await self.get_state(MessagesState)
        messages.show(
            gettext(self.current_language, "The client references have been updated."), "success"
        )
