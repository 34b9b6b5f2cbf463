"""The new ticket form (issue 49, item 1): subject, description, type, priority, the service
(searched among the user's own), the company when the user has several, and files.

Nothing typed is lost on a refusal: the provider's 422 violations land under their fields and
the form keeps its values; it is emptied only when its page opens again. The ticket is opened
first, then each file is sent to it, streamed from the upload's spool: a file the provider
refuses (its type, its size) leaves the ticket opened and is named in the message.
"""

import reflex as rx

from portal import routes
from portal.client import ProviderClient, ProviderError, ValidationFailed
from portal.client.models import NewTicket, ServiceFilters
from portal.components.company_picker import CompanyOption
from portal.components.tickets.files import FileChoice, attach_all
from portal.i18n import N_, gettext
from portal.pages.new_ticket.models import (
    DEFAULT_PRIORITY,
    DEFAULT_TYPE,
    ServiceOption,
)
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState
from portal.state.session import SessionState

UPLOAD_ID = "new-ticket-files"
SERVICE_SEARCH_MIN_CHARS = 2
SERVICE_SEARCH_RESULTS = 10
# A service is offered with its type's label.
SERVICE_INCLUDES = ("type",)
FIELDS = ("subject", "description", "type", "priority", "service", "company")
TICKET_OPENED = N_("Ticket {number} opened.")


class NewTicketState(FileChoice, SessionState):
    upload_id = UPLOAD_ID
    subject: rx.Field[str] = rx.field("")
    description: rx.Field[str] = rx.field("")
    ticket_type: rx.Field[str] = rx.field(DEFAULT_TYPE)
    priority: rx.Field[str] = rx.field(DEFAULT_PRIORITY)
    service: rx.Field[ServiceOption] = rx.field(default_factory=ServiceOption)
    service_query: rx.Field[str] = rx.field("")
    service_matches: rx.Field[list[ServiceOption]] = rx.field(default_factory=list)
    companies: rx.Field[list[CompanyOption]] = rx.field(default_factory=list)
    company: rx.Field[str] = rx.field("")
    # The provider's violations by field, and those no field shows.
    violations: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    alert_lines: rx.Field[list[str]] = rx.field(default_factory=list)
    sending: rx.Field[bool] = rx.field(False)

    @rx.event
    @reports_failures
    async def load(self):
        """An empty form, the service of ``?service=`` filled in, the user's companies read."""
        if not self._page_open():
            return
        self.subject = self.description = self.service_query = self.company = ""
        self.ticket_type, self.priority = DEFAULT_TYPE, DEFAULT_PRIORITY
        self.service, self.service_matches = ServiceOption(), []
        self.violations, self.alert_lines, self.sending = {}, [], False
        self.files, self.files_error = [], ""
        yield rx.clear_selected_files(UPLOAD_ID)
        client = await self.provider()
        me = await client.users.get(self.user_id, includes=("company",))
        self.companies = [CompanyOption(id=c.id, name=c.name or "") for c in me.companies]
        service_id = self.router.url.query_parameters.get("service", "")
        if service_id:
            await self._preset_service(client, service_id)

    async def _preset_service(self, client: ProviderClient, service_id: str) -> None:
        """The service of the page the user came from; one they may not read is left out."""
        try:
            service = await client.services.get(service_id, includes=SERVICE_INCLUDES)
            self.service = ServiceOption.of(service)
        except ProviderError:
            self.service = ServiceOption()

    def _changed(self, name: str) -> None:
        """A field changed: the provider's violation described the value sent."""
        if name in self.violations:
            self.violations = {k: v for k, v in self.violations.items() if k != name}

    @rx.event
    def set_subject(self, value: str):
        self.subject = value
        self._changed("subject")

    @rx.event
    def set_description(self, value: str):
        self.description = value
        self._changed("description")

    @rx.event
    def set_ticket_type(self, value: str):
        self.ticket_type = value
        self._changed("type")

    @rx.event
    def set_priority(self, value: str):
        self.priority = value
        self._changed("priority")

    @rx.event
    def set_company(self, value: str):
        self.company = value
        self._changed("company")

    @rx.event
    @reports_failures
    async def search_service(self, query: str):
        self.service_query = query
        self.service_matches = []
        if len(query.strip()) < SERVICE_SEARCH_MIN_CHARS:
            return
        client = await self.provider()
        page = await client.services.list(
            ServiceFilters(search=query.strip()),
            items_per_page=SERVICE_SEARCH_RESULTS,
            includes=SERVICE_INCLUDES,
        )
        self.service_matches = [ServiceOption.of(service) for service in page.items]

    @rx.event
    def choose_service(self, option: dict[str, str]):
        """A service chosen: the ticket is its company's, none is chosen apart."""
        self.service = ServiceOption.model_validate(option)
        self.service_query, self.service_matches, self.company = "", [], ""
        self._changed("service")

    @rx.event
    def clear_service(self):
        self.service = ServiceOption()
        self._changed("service")

    def _ticket(self) -> NewTicket:
        return NewTicket(
            subject=self.subject.strip(),
            description=self.description,
            type=self.ticket_type,
            priority=self.priority,
            service=self.service.id or None,
            company=self.company or None,
        )

    @rx.event
    @reports_failures(shown=True)
    async def submit(self, files: list[rx.UploadFile]):
        """Opens the ticket, then attaches the files that came with the form."""
        if self.sending:
            return
        self.sending, self.violations, self.alert_lines = True, {}, []
        yield
        language = self.current_language
        try:
            client = await self.provider()
            try:
                ticket = await client.tickets.create(self._ticket())
            except ValidationFailed as error:
                self._refused(error)
                return
            refused = await attach_all(client, ticket.id, files, language)
        finally:
            self.sending = False
        self.files = []
        messages = await self.get_state(MessagesState)
        messages.show(gettext(language, TICKET_OPENED, number=f"#{ticket.number}"), "success")
        for line in refused:
            messages.show(line, "error", permanent=True)
        yield rx.clear_selected_files(UPLOAD_ID)
        yield rx.redirect(routes.ticket_path(ticket.id))

    def _refused(self, error: ValidationFailed) -> None:
        shown: dict[str, str] = {}
        unmapped: list[str] = []
        for path, messages in error.by_field().items():
            if path in FIELDS:
                shown[path] = " ".join(messages)
            else:
                unmapped.extend(messages)
        self.violations = shown
        self.alert_lines = unmapped or ([] if shown else [error.message])
