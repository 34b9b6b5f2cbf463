"""Resource namespaces of ``ProviderClient`` (``client.users``, ``client.companies``, …)."""

from portal.client.resources.api_tokens import PersonalTokensResource
from portal.client.resources.audit import AuditLogResource
from portal.client.resources.auth import AuthResource
from portal.client.resources.companies import CompaniesResource
from portal.client.resources.impersonation import ImpersonationResource
from portal.client.resources.invoices import InvoicesResource
from portal.client.resources.maintenances import MaintenancesResource
from portal.client.resources.notifications import NotificationsResource
from portal.client.resources.passkeys import PasskeysResource
from portal.client.resources.second_factor import SecondFactorResource
from portal.client.resources.sensors import SensorsResource
from portal.client.resources.service_types import ServiceTypesResource
from portal.client.resources.services import ServicesResource
from portal.client.resources.termination_documents import TerminationDocumentsResource
from portal.client.resources.tickets import TicketsResource
from portal.client.resources.users import UsersResource
from portal.client.resources.webhooks import WebhooksResource

__all__ = [
    "AuditLogResource",
    "AuthResource",
    "CompaniesResource",
    "ImpersonationResource",
    "InvoicesResource",
    "MaintenancesResource",
    "NotificationsResource",
    "PasskeysResource",
    "PersonalTokensResource",
    "SecondFactorResource",
    "SensorsResource",
    "ServiceTypesResource",
    "ServicesResource",
    "TerminationDocumentsResource",
    "TicketsResource",
    "UsersResource",
    "WebhooksResource",
]
