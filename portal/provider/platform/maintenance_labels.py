"""The names of a maintenance's type, classification and status, as message ids: shown by the
maintenances API and the calendar feed, and written in the maintenance notices."""

from portal.i18n import N_
from portal.provider.platform.models import (
    MaintenanceClassification,
    MaintenanceStatus,
    MaintenanceType,
)

TYPE_LABELS = {
    MaintenanceType.PREVENTIVE: N_("Preventive"),
    MaintenanceType.EMERGENCY: N_("Emergency"),
    MaintenanceType.CORRECTIVE: N_("Corrective"),
    MaintenanceType.INFORMATION: N_("Information"),
}
CLASSIFICATION_LABELS = {
    MaintenanceClassification.NO_IMPACT: N_("No impact"),
    MaintenanceClassification.DEGRADED: N_("Degraded"),
    MaintenanceClassification.OUTAGE: N_("Outage"),
}
STATUS_LABELS = {
    MaintenanceStatus.SCHEDULED: N_("Scheduled"),
    MaintenanceStatus.ONGOING: N_("Ongoing"),
    MaintenanceStatus.COMPLETED: N_("Completed"),
    MaintenanceStatus.CANCELLED: N_("Cancelled"),
}
