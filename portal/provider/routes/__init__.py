"""One router per resource."""

from portal.provider.routes import (
    auth,
    client_references,
    companies,
    documents,
    impersonation,
    integration,
    integration_files,
    invoice_summary,
    invoices,
    maintenances,
    reset,
    service_types,
    services,
    services_export,
    termination_documents,
    tickets,
    tokens,
    user_writes,
    users,
)

ROUTERS = (
    auth.router,
    reset.router,
    users.router,
    user_writes.router,
    impersonation.router,
    companies.router,
    tokens.router,
    integration.router,
    integration_files.router,
    # Before the services router: ``/api/services/export`` is not a service id.
    services_export.router,
    client_references.router,
    services.router,
    documents.router,
    service_types.router,
    termination_documents.router,
    maintenances.router,
    # Before the invoices router: ``/api/invoices/summary`` is not an invoice id.
    invoice_summary.router,
    invoices.router,
    tickets.router,
)
