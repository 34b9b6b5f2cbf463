"""The provider's tables (spec section 3), one module per area, all importable from here."""

from sqlmodel import SQLModel

from portal.provider.platform.models.accounts import (
    Company,
    CompanySales,
    Job,
    User,
    UserAssistant,
    UserAuxiliaryCompany,
)
from portal.provider.platform.models.auth import (
    ApiToken,
    AuditLog,
    OneTimeToken,
    OutboxMail,
    ProviderSession,
    RateLimitCounter,
    TokenPurpose,
)
from portal.provider.platform.models.billing import Invoice, InvoiceLine, InvoiceStatus, InvoiceType
from portal.provider.platform.models.columns import utcnow
from portal.provider.platform.models.monitoring import (
    RollupResolution,
    Sensor,
    SensorLegendEntry,
    SensorRollup,
    SensorRollupMark,
    SensorSample,
    SensorStatus,
)
from portal.provider.platform.models.search import fold
from portal.provider.platform.models.second_factor import (
    PendingLogin,
    RecoveryCode,
    RememberedDevice,
    SecondFactor,
)
from portal.provider.platform.models.services import (
    DocumentKind,
    Endpoint,
    MilestoneName,
    Service,
    ServiceAttribute,
    ServiceDocument,
    ServiceMilestone,
    ServiceStatus,
    ServiceType,
    Termination,
    TerminationDocument,
    TerminationService,
)
from portal.provider.platform.models.support import (
    CalendarFeed,
    Maintenance,
    MaintenanceClassification,
    MaintenanceContact,
    MaintenanceService,
    MaintenanceStatus,
    MaintenanceType,
    Ticket,
    TicketAttachment,
    TicketPriority,
    TicketStatus,
)

# Every table of the provider, for migrations and tests.
metadata = SQLModel.metadata

__all__ = [
    "ApiToken",
    "AuditLog",
    "CalendarFeed",
    "Company",
    "CompanySales",
    "DocumentKind",
    "Endpoint",
    "Invoice",
    "InvoiceLine",
    "InvoiceStatus",
    "InvoiceType",
    "Job",
    "Maintenance",
    "MaintenanceClassification",
    "MaintenanceContact",
    "MaintenanceService",
    "MaintenanceStatus",
    "MaintenanceType",
    "MilestoneName",
    "OneTimeToken",
    "OutboxMail",
    "PendingLogin",
    "ProviderSession",
    "RateLimitCounter",
    "RecoveryCode",
    "RememberedDevice",
    "RollupResolution",
    "SecondFactor",
    "Sensor",
    "SensorLegendEntry",
    "SensorRollup",
    "SensorRollupMark",
    "SensorSample",
    "SensorStatus",
    "Service",
    "ServiceAttribute",
    "ServiceDocument",
    "ServiceMilestone",
    "ServiceStatus",
    "ServiceType",
    "Termination",
    "TerminationDocument",
    "TerminationService",
    "Ticket",
    "TicketAttachment",
    "TicketPriority",
    "TicketStatus",
    "TokenPurpose",
    "User",
    "UserAssistant",
    "UserAuxiliaryCompany",
    "fold",
    "metadata",
    "utcnow",
]
