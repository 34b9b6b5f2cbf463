"""The rows of the Webhooks page (issue 51): an endpoint and a delivery of its log, formatted
for the user's language."""

from pydantic import BaseModel

from portal.client.models import Webhook, WebhookDelivery
from portal.i18n import N_, format_moment, gettext

# The events an endpoint may receive, as the page names them (the provider's EVENT_TYPES).
EVENT_LABELS = {
    "maintenance.scheduled": N_("Maintenance scheduled"),
    "maintenance.updated": N_("Maintenance updated"),
    "maintenance.cancelled": N_("Maintenance cancelled"),
    "ticket.created": N_("Ticket created"),
    "ticket.updated": N_("Ticket updated"),
    "sensor.status_changed": N_("Sensor status changed"),
}
EVENT_TYPES = tuple(EVENT_LABELS)
TEST_EVENT = N_("Test event")
DELIVERY_STATES = {
    "pending": N_("Waiting"),
    "delivered": N_("Delivered"),
    "failed": N_("Failed"),
}


class WebhookRow(BaseModel):
    id: str = ""
    url: str = ""
    description: str = ""
    events: str = ""
    enabled: bool = True
    # Disabled by the portal after a day of failures (not by a user).
    failing: bool = False
    created: str = ""
    # During a rotation: until when the previous secret signs too.
    previous_secret_until: str = ""

    @classmethod
    def of(cls, webhook: Webhook, language: str, zone: str) -> "WebhookRow":
        return cls(
            id=webhook.id,
            url=webhook.url,
            description=webhook.description,
            events=", ".join(
                gettext(language, EVENT_LABELS[event])
                for event in webhook.event_types
                if event in EVENT_LABELS
            ),
            enabled=webhook.enabled,
            failing=webhook.disabled_reason == "failing",
            created=format_moment(webhook.created_at, language, zone),
            previous_secret_until=format_moment(webhook.previous_secret_expires_at, language, zone),
        )


class DeliveryRow(BaseModel):
    id: str = ""
    message_id: str = ""
    event: str = ""
    state: str = ""
    state_label: str = ""
    created: str = ""
    last_attempt: str = ""
    attempts: int = 0
    status: str = ""
    latency: str = ""
    # What the receiver answered, or why it could not be reached.
    answer: str = ""

    @classmethod
    def of(cls, delivery: WebhookDelivery, language: str, zone: str) -> "DeliveryRow":
        label = EVENT_LABELS.get(delivery.event_type, TEST_EVENT)
        return cls(
            id=delivery.id,
            message_id=delivery.message_id,
            event=gettext(language, label),
            state=delivery.state,
            state_label=gettext(language, DELIVERY_STATES.get(delivery.state, delivery.state)),
            created=format_moment(delivery.created_at, language, zone),
            last_attempt=format_moment(delivery.last_attempt_at, language, zone),
            attempts=delivery.attempts,
            status="" if delivery.response_status is None else str(delivery.response_status),
            latency="" if delivery.latency_ms is None else f"{delivery.latency_ms} ms",
            answer=delivery.error or delivery.response_excerpt,
        )
