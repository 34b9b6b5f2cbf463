"""The audit log: administrators only (the provider answers 403 to anyone else)."""

from collections.abc import Mapping

from portal.client.hydra import DEFAULT_ITEMS_PER_PAGE, Page
from portal.client.models.audit import AuditEntry, AuditFilters
from portal.client.resources.base import Resource

AUDIT_LOG = "/api/audit_log"


class AuditLogResource(Resource):
    async def list(
        self,
        filters: AuditFilters | None = None,
        *,
        page: int = 1,
        items_per_page: int = DEFAULT_ITEMS_PER_PAGE,
        order: Mapping[str, str] | None = None,
    ) -> Page[AuditEntry]:
        return await self._list(
            AuditEntry,
            AUDIT_LOG,
            page=page,
            items_per_page=items_per_page,
            order=order,
            filters=filters,
        )
