"""A company's webhook endpoints (issue 51): registered, changed, rotated, tested and deleted by
its user managers, with each one's delivery log."""

from collections.abc import Sequence

from portal.client.hydra import Page
from portal.client.models.webhooks import Webhook, WebhookDelivery
from portal.client.resources.base import Resource

WEBHOOKS = "/api/webhooks"
# The most endpoints the page lists, and the latest deliveries of a log.
LISTED = 100
LOGGED = 20


class WebhooksResource(Resource):
    async def list(self) -> Page[Webhook]:
        return await self._list(Webhook, WEBHOOKS, items_per_page=LISTED)

    async def create(
        self, url: str, event_types: Sequence[str], description: str = "", company: str = ""
    ) -> Webhook:
        """A new endpoint; its secret is in the answer, and never again."""
        body: dict[str, object] = {
            "url": url,
            "eventTypes": list(event_types),
            "description": description,
        }
        if company:
            body["company"] = company
        return await self._send(Webhook, "POST", WEBHOOKS, json=body)

    async def set_enabled(self, webhook_id: str, enabled: bool) -> Webhook:
        path = f"{WEBHOOKS}/{webhook_id}"
        return await self._send(Webhook, "PATCH", path, json={"enabled": enabled})

    async def rotate_secret(self, webhook_id: str) -> Webhook:
        """A new secret, in the answer only; the previous one signs too for 24 hours."""
        return await self._send(Webhook, "POST", f"{WEBHOOKS}/{webhook_id}/rotate_secret")

    async def send_test(self, webhook_id: str) -> WebhookDelivery:
        return await self._send(WebhookDelivery, "POST", f"{WEBHOOKS}/{webhook_id}/test")

    async def deliveries(self, webhook_id: str) -> Page[WebhookDelivery]:
        path = f"{WEBHOOKS}/{webhook_id}/deliveries"
        return await self._list(WebhookDelivery, path, items_per_page=LOGGED)

    async def delete(self, webhook_id: str) -> None:
        await self._client.request("DELETE", f"{WEBHOOKS}/{webhook_id}")
