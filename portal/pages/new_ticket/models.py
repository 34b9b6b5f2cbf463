"""What the new ticket form offers: the types and priorities, and a service as a choice."""

from pydantic import BaseModel

from portal.client.models import Service
from portal.i18n import N_

# The helpdesk's categories the portal opens tickets in (issue 49, item 1), by their key.
TYPE_LABELS = {
    "incident": N_("Incident"),
    "request": N_("Service request"),
    "question": N_("Question"),
}
DEFAULT_TYPE = "incident"
DEFAULT_PRIORITY = "medium"
SUBJECT_MAX = 200
DESCRIPTION_MAX = 20_000


class ServiceOption(BaseModel):
    id: str = ""
    label: str = ""

    @classmethod
    def of(cls, service: Service) -> "ServiceOption":
        """The reference, then the first client reference and the type, as the user knows it."""
        parts = [service.reference, *service.client_references[:1]]
        if service.type is not None and service.type.label:
            parts.append(service.type.label)
        return cls(id=service.id, label=" · ".join(part for part in parts if part))
