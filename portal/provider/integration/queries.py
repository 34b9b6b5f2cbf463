"""What the integration API's lists read (``portal.provider.platform.lists``): the API tokens,
an administrator's own list, and a company's webhooks with their deliveries."""

from typing import TypeVar

from sqlmodel import col
from sqlmodel.sql.expression import SelectOfScalar

from portal.provider.platform.lists import ListOf, Sorting
from portal.provider.platform.models import ApiToken, ApiTokenKind, WebhookDelivery, WebhookEndpoint
from portal.provider.platform.scoping import companies, staff_only
from portal.provider.platform.security import Principal

T = TypeVar("T")


def integration_tokens(statement: SelectOfScalar[T], principal: Principal) -> SelectOfScalar[T]:
    """Every administrator's integration tokens; users' personal tokens are their own."""
    return staff_only(statement, principal).where(col(ApiToken.kind) == ApiTokenKind.INTEGRATION)


# Newest first.
TOKENS = ListOf(
    ApiToken,
    Sorting(then=((col(ApiToken.created_at), True), (col(ApiToken.id), False))),
    integration_tokens,
)


# A company's webhook endpoints, oldest first, and an endpoint's deliveries, newest first
# (issue 51): the reader's companies only.
WEBHOOKS = ListOf(
    WebhookEndpoint,
    Sorting(then=((col(WebhookEndpoint.created_at), False), (col(WebhookEndpoint.id), False))),
    companies(WebhookEndpoint.company_id),
    resource="Webhook",
)
WEBHOOK_DELIVERIES = ListOf(
    WebhookDelivery,
    Sorting(then=((col(WebhookDelivery.id), True),)),
    companies(WebhookEndpoint.company_id),
    resource="WebhookDelivery",
)
