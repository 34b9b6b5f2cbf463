"""Every router of the provider, in the order their paths are matched."""

from portal.provider.accounts.routes.audit_log import router as audit_log
from portal.provider.accounts.routes.auth import router as auth
from portal.provider.accounts.routes.companies import router as companies
from portal.provider.accounts.routes.company_policy import router as company_policy
from portal.provider.accounts.routes.impersonation import router as impersonation
from portal.provider.accounts.routes.notice_addresses import router as notice_addresses
from portal.provider.accounts.routes.notice_links import router as notice_links
from portal.provider.accounts.routes.notification_preferences import (
    router as notification_preferences,
)
from portal.provider.accounts.routes.passkeys import router as passkeys
from portal.provider.accounts.routes.personal_tokens import router as personal_tokens
from portal.provider.accounts.routes.reset import router as reset
from portal.provider.accounts.routes.second_factor import router as second_factor
from portal.provider.accounts.routes.sso import router as sso
from portal.provider.accounts.routes.user_access import router as user_access
from portal.provider.accounts.routes.user_writes import router as user_writes
from portal.provider.accounts.routes.users import router as users
from portal.provider.billing.routes.invoice_summary import router as invoice_summary
from portal.provider.billing.routes.invoices import router as invoices
from portal.provider.dashboard import router as dashboard
from portal.provider.integration.routes.helpdesk import router as helpdesk
from portal.provider.integration.routes.integration import router as integration
from portal.provider.integration.routes.integration_files import router as integration_files
from portal.provider.integration.routes.tokens import router as tokens
from portal.provider.integration.routes.webhooks import router as webhooks
from portal.provider.maintenances.routes.calendar_feeds import router as calendar_feeds
from portal.provider.maintenances.routes.maintenances import router as maintenances
from portal.provider.monitoring.routes.sensors import router as sensors
from portal.provider.services.routes.client_references import router as client_references
from portal.provider.services.routes.documents import router as documents
from portal.provider.services.routes.service_types import router as service_types
from portal.provider.services.routes.services import router as services
from portal.provider.services.routes.services_export import router as services_export
from portal.provider.services.routes.termination_documents import router as termination_documents
from portal.provider.support.routes.ticket_writes import router as ticket_writes
from portal.provider.support.routes.tickets import router as tickets

ROUTERS = (
    auth,
    second_factor,
    sso,
    passkeys,
    reset,
    users,
    dashboard,
    user_writes,
    user_access,
    impersonation,
    companies,
    company_policy,
    tokens,
    personal_tokens,
    integration,
    integration_files,
    helpdesk,
    webhooks,
    # Before the services router: ``/api/services/export`` is not a service id.
    services_export,
    client_references,
    services,
    documents,
    service_types,
    termination_documents,
    maintenances,
    calendar_feeds,
    notice_links,
    notice_addresses,
    notification_preferences,
    # Before the invoices router: ``/api/invoices/summary`` is not an invoice id.
    invoice_summary,
    invoices,
    tickets,
    ticket_writes,
    audit_log,
    sensors,
)
