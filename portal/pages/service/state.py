"""A service's page (spec 2, Service detail), loaded from the id of the URL; a missing one
stops there: no breadcrumbs, no further calls."""

from typing import Literal
from urllib.parse import unquote

import reflex as rx

from portal.client import NotFound, ProviderError
from portal.client_references import split_client_references
from portal.components.invoices.state import InvoicesTableState
from portal.components.maintenances.state import MaintenancesState
from portal.i18n import gettext
from portal.pages.service.models import ServiceDetail
from portal.permissions import ACCESS_INVOICES, MANAGE_SERVICE_REFERENCES
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState
from portal.state.session import SessionState

PageStatus = Literal["loading", "ready", "missing", "failed"]
SERVICE_INCLUDES = ("order", "company", "type")


class ServiceState(SessionState):
    service: rx.Field[ServiceDetail] = rx.field(default_factory=ServiceDetail)
    status: rx.Field[str] = rx.field("loading")
    references_text: rx.Field[str] = rx.field("")
    saving: rx.Field[bool] = rx.field(False)

    def _service_id(self) -> str:
        return unquote(self.router.url.path.rstrip("/").rsplit("/", 1)[-1])

    def _show(self, status: PageStatus, service: ServiceDetail | None = None) -> None:
        self.status = status
        self.service = service or ServiceDetail()
        self.references_text = ", ".join(self.service.client_references)

    @rx.event
    @reports_failures
    async def load(self):
        if not self._page_open():
            return
        service_id = self._service_id()
        if self.service.id != service_id:
            # Never show the previous service under another service's address while loading.
            self._show("loading")
        yield
        language = self.current_language
        try:
            client = await self.provider()
            service = ServiceDetail.of(
                await client.services.get(service_id, includes=SERVICE_INCLUDES), language
            )
            if service.is_terminating:
                documents = await client.termination_documents.for_service(service.id)
                service = service.with_terminations(documents)
        except NotFound:
            # A foreign or unknown id: the provider does not say which (DESIGN 4).
            self._show("missing")
            return
        except ProviderError:
            self._show("failed")
            raise
        self._show("ready", service)
        yield MaintenancesState.show_for_service(service.reference)
        if self._holds(ACCESS_INVOICES):
            yield InvoicesTableState.show_for_service(service.id)

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
        text = ", ".join(split_client_references(self.references_text))
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
