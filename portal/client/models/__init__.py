"""Pydantic models of the provider's resources, one module per resource."""

from portal.client.models.api_tokens import PersonalToken
from portal.client.models.audit import AuditEntry, AuditFilters
from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company, SalesContact
from portal.client.models.dashboard import Dashboard
from portal.client.models.invoices import (
    BilledMonth,
    Invoice,
    InvoiceFilters,
    InvoiceLine,
    InvoiceSummary,
)
from portal.client.models.maintenances import (
    CalendarFeed,
    ImpactedService,
    Maintenance,
    MaintenanceContact,
    MaintenanceFilters,
    MaintenancePeriod,
)
from portal.client.models.services import (
    Attribute,
    Document,
    Endpoint,
    ImportResult,
    Milestone,
    Service,
    ServiceFilters,
    ServiceStatus,
    ServiceType,
    TerminationDocument,
)
from portal.client.models.sso import SsoLookup, SsoSettings, SsoStart
from portal.client.models.tickets import (
    MessageFile,
    NewTicket,
    Ticket,
    TicketAttachment,
    TicketFilters,
    TicketMessage,
)
from portal.client.models.users import (
    CompanyAccess,
    GrantedService,
    User,
    UserAccess,
    UserFilters,
    UserPayload,
)
from portal.client.models.webhooks import Webhook, WebhookDelivery

__all__ = [
    "Attribute",
    "AuditEntry",
    "AuditFilters",
    "BilledMonth",
    "CalendarFeed",
    "Company",
    "CompanyAccess",
    "Dashboard",
    "Document",
    "Endpoint",
    "Entity",
    "GrantedService",
    "ImpactedService",
    "ImportResult",
    "Invoice",
    "InvoiceFilters",
    "InvoiceLine",
    "InvoiceSummary",
    "Maintenance",
    "MaintenanceContact",
    "MaintenanceFilters",
    "MaintenancePeriod",
    "MessageFile",
    "Milestone",
    "NewTicket",
    "PersonalToken",
    "ProviderModel",
    "SalesContact",
    "Service",
    "ServiceFilters",
    "ServiceStatus",
    "ServiceType",
    "SsoLookup",
    "SsoSettings",
    "SsoStart",
    "TerminationDocument",
    "Ticket",
    "TicketAttachment",
    "TicketFilters",
    "TicketMessage",
    "User",
    "UserAccess",
    "UserFilters",
    "UserPayload",
    "Webhook",
    "WebhookDelivery",
]
