"""The audit log screen (issue 17): filters, page and size read from and written to the URL."""

from typing import Any, ClassVar

import reflex as rx

from portal.client import Page, ProviderClient
from portal.client.models import AuditFilters
from portal.components.audit.models import AuditRow
from portal.components.audit.query import AUDIT_URL
from portal.components.paging import Paging
from portal.list_query import ListUrl
from portal.state.lists import ListState
from portal.state.session import SessionState


class AuditLogState(ListState, SessionState):
    url: ClassVar[ListUrl[AuditFilters]] = AUDIT_URL
    filters: rx.Field[AuditFilters] = rx.field(default_factory=AuditFilters)
    rows: rx.Field[list[AuditRow]] = rx.field(default_factory=list)

    async def _fetch(self, client: ProviderClient, paging: Paging) -> Page[Any]:
        # Newest first, always: the provider's order, so no order is sent.
        arguments = paging.arguments()
        arguments.pop("order", None)
        page = await client.audit_log.list(self.filters, **arguments)
        language = self.current_language
        self.rows = [AuditRow.of(entry, language, self.time_zone) for entry in page.items]
        return page
