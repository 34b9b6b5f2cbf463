"""Which domain shows which object of the webhook events (issue 51): the app joins them, as
no domain imports another. Called by the app and the command line before any write."""

from portal.provider.maintenances.webhook_payload import render_maintenance
from portal.provider.monitoring.webhook_payload import render_sensor
from portal.provider.platform import webhooks
from portal.provider.support.webhook_payload import render_ticket


def register_renderers() -> None:
    webhooks.register("maintenance", render_maintenance)
    webhooks.register("ticket", render_ticket)
    webhooks.register("sensor", render_sensor)
