"""Pydantic models of the provider's resources, one module per resource."""

from portal.client.models.base import Entity, ProviderModel
from portal.client.models.companies import Company, SalesContact
from portal.client.models.invoices import Invoice
from portal.client.models.maintenances import ImpactedService, Maintenance, MaintenanceContact
from portal.client.models.services import (
    Attribute,
    Document,
    Endpoint,
    ImportResult,
    Milestone,
    Service,
    ServiceType,
    TerminationDocument,
)
from portal.client.models.users import User, UserPayload

__all__ = [
    "Attribute",
    "Company",
    "Document",
    "Endpoint",
    "Entity",
    "ImpactedService",
    "ImportResult",
    "Invoice",
    "Maintenance",
    "MaintenanceContact",
    "Milestone",
    "ProviderModel",
    "SalesContact",
    "Service",
    "ServiceType",
    "TerminationDocument",
    "User",
    "UserPayload",
]
