"""Pydantic models of the provider's resources, one module per resource."""

from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company, SalesContact
from portal.client.models.invoices import BilledMonth, Invoice, InvoiceFilters, InvoiceSummary
from portal.client.models.maintenances import (
    ImpactedService,
    Maintenance,
    MaintenanceContact,
    MaintenanceFilters,
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
from portal.client.models.tickets import Ticket, TicketAttachment, TicketFilters
from portal.client.models.users import User, UserFilters, UserPayload

__all__ = [
    "Attribute",
    "BilledMonth",
    "Company",
    "Document",
    "Endpoint",
    "Entity",
    "ImpactedService",
    "ImportResult",
    "Invoice",
    "InvoiceFilters",
    "InvoiceSummary",
    "Maintenance",
    "MaintenanceContact",
    "MaintenanceFilters",
    "Milestone",
    "ProviderModel",
    "SalesContact",
    "Service",
    "ServiceFilters",
    "ServiceStatus",
    "ServiceType",
    "TerminationDocument",
    "Ticket",
    "TicketAttachment",
    "TicketFilters",
    "User",
    "UserFilters",
    "UserPayload",
]
