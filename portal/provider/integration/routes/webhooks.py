"""Webhooks (issue 51, items 4 and 5; docs/decisions/webhooks.md): a company's user managers
(``MANAGE_WEBHOOKS``) register HTTPS endpoints for the events they choose, rotate their
signing secret, disable, enable and delete them, read each one's delivery log and send it a
test event. The secret is in the answers of the creation and of a rotation only. An endpoint of
another company answers 404, whoever asks; a user without the permission gets 403.
"""

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request, Response
from pydantic import Field
from pydantic.json_schema import JsonDict
from sqlmodel import Session, col, select

from portal.i18n import N_
from portal.permissions import MANAGE_WEBHOOKS
from portal.provider.integration.queries import WEBHOOK_DELIVERIES, WEBHOOKS
from portal.provider.platform import audit, outbound, webhooks
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ApiModel, Collection, PaginationDep, Resource, iri
from portal.provider.platform.lists import Sort
from portal.provider.platform.models import (
    User,
    WebhookDelivery,
    WebhookDeliveryState,
    WebhookEndpoint,
    utcnow,
)
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.scoping import one_or_404, scope_to_companies
from portal.provider.platform.security import CurrentPrincipal, Principal

router = ProviderRouter(prefix="/api/webhooks", tags=["webhooks"])

UNKNOWN_EVENT = N_("{event} is not an event of the portal; the events are {events}.")
EVENT_TWICE = N_("{event} is named twice.")
NOT_YOUR_COMPANY = N_("Choose one of your companies.")
LIMITED_HERE = N_(
    "Your access to this company is limited to some of its services: its webhooks, which "
    "carry all of its events, are managed by a user with access to all of them."
)
ENABLE_FIRST = N_("Enable the endpoint to send it a test event.")
TEST_MESSAGE = "A test event from the customer portal: this endpoint receives its events."

EVENT_ENUM: JsonDict = {"items": {"type": "string", "enum": list(webhooks.EVENT_TYPES)}}


async def webhook_manager(principal: CurrentPrincipal) -> Principal:
    """The caller, who must manage webhooks (403 otherwise), with a session (a personal token
    reads, and is refused here by ``security``)."""
    if not principal.allows(MANAGE_WEBHOOKS):
        raise ApiError(403)
    # Only the companies where the caller's access is whole: a company's webhooks carry all of
    # its events, so a user limited there to some services (issue 53) manages none of them.
    limited = principal.limited_company_ids or frozenset()
    return replace(principal, company_ids=principal.company_ids - limited)


Manager = Annotated[Principal, Depends(webhook_manager)]


class WebhookIn(ApiModel):
    url: str = Field(
        min_length=1,
        max_length=2000,
        description="Where the events are posted: ``https://`` to a public address.",
        examples=["https://noc.example.com/hooks/patchbay"],
    )
    description: str = Field(default="", max_length=300, examples=["NOC event bus"])
    event_types: list[str] = Field(
        min_length=1,
        max_length=len(webhooks.EVENT_TYPES),
        description="The events the endpoint receives.",
        examples=[["maintenance.scheduled", "ticket.updated"]],
        json_schema_extra=EVENT_ENUM,
    )
    company: str | None = Field(
        default=None,
        description="The IRI of the company whose events it receives; the caller's own "
        "company if absent.",
    )


class WebhookChange(ApiModel):
    url: str | None = Field(default=None, min_length=1, max_length=2000)
    description: str | None = Field(default=None, max_length=300)
    event_types: list[str] | None = Field(
        default=None,
        min_length=1,
        max_length=len(webhooks.EVENT_TYPES),
        json_schema_extra=EVENT_ENUM,
    )
    enabled: bool | None = Field(
        default=None,
        description="Disabled, it receives nothing, and what waited for it is marked failed.",
    )


class WebhookOut(Resource):
    type: str = Field(default="Webhook", alias="@type")
    company: str = Field(description="The IRI of the company whose events it receives.")
    url: str
    description: str
    event_types: list[str]
    enabled: bool
    disabled_reason: str | None = Field(
        description="``manual``, or ``failing``: its deliveries failed for the whole retry window."
    )
    created_at: datetime
    previous_secret_expires_at: datetime | None = Field(
        description="During a rotation, until when the previous secret signs too."
    )


class NewSecretOut(WebhookOut):
    secret: str = Field(
        description="The signing secret (Standard Webhooks ``whsec_…``), shown this once.",
        examples=["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    )


class DeliveryOut(Resource):
    type: str = Field(default="WebhookDelivery", alias="@type")
    message_id: str = Field(description="The ``webhook-id`` header, the same at each attempt.")
    event_type: str
    state: WebhookDeliveryState
    created_at: datetime
    attempts: int
    last_attempt_at: datetime | None
    next_attempt_at: datetime | None = Field(description="While pending: the next attempt.")
    response_status: int | None = Field(description="The last attempt's HTTP status, if any.")
    latency_ms: int | None
    response_excerpt: str = Field(description="The start of the last answer's body.")
    error: str = Field(description="Why the last attempt got no answer, if it got none.")
    payload: str = Field(description="The JSON body sent.")


def webhook_out(endpoint: WebhookEndpoint) -> WebhookOut:
    return WebhookOut(
        iri=iri("webhooks", endpoint.id),
        id=str(endpoint.id),
        company=iri("companies", endpoint.company_id),
        url=endpoint.url,
        description=endpoint.description,
        event_types=endpoint.event_types,
        enabled=endpoint.enabled,
        disabled_reason=endpoint.disabled_reason,
        created_at=endpoint.created_at,
        previous_secret_expires_at=endpoint.previous_secret_expires_at,
    )


def delivery_out(delivery: WebhookDelivery) -> DeliveryOut:
    pending = delivery.state == WebhookDeliveryState.PENDING
    return DeliveryOut(
        iri=f"{iri('webhooks', delivery.endpoint_id)}/deliveries/{delivery.id}",
        id=str(delivery.id),
        message_id=delivery.message_id,
        event_type=delivery.event_type,
        state=delivery.state,
        created_at=delivery.created_at,
        attempts=delivery.attempts,
        last_attempt_at=delivery.last_attempt_at,
        next_attempt_at=delivery.next_attempt_at if pending else None,
        response_status=delivery.response_status,
        latency_ms=delivery.latency_ms,
        response_excerpt=delivery.response_excerpt,
        error=delivery.error,
        payload=delivery.payload,
    )


def _url_violations(url: str) -> list[Violation]:
    try:
        outbound.checked(url)
    except outbound.Refused as refusal:
        return [Violation("url", refusal.message, dict(refusal.fields))]
    return []


def _event_violations(event_types: list[str]) -> list[Violation]:
    violations = []
    for index, event in enumerate(event_types):
        path = f"eventTypes[{index}]"
        if event not in webhooks.EVENT_TYPES:
            known = ", ".join(webhooks.EVENT_TYPES)
            violations.append(Violation(path, UNKNOWN_EVENT, {"event": event, "events": known}))
        elif event in event_types[:index]:
            violations.append(Violation(path, EVENT_TWICE, {"event": event}))
    return violations


def _company(db: Session, principal: Principal, company: str | None) -> uuid.UUID | None:
    if company is None:
        return db.get_one(User, principal.user.id).company_id
    try:
        return uuid.UUID(company.rstrip("/").rsplit("/", 1)[-1])
    except ValueError:
        return None


def _company_violation(principal: Principal, company_id: uuid.UUID | None) -> Violation | None:
    """Why the endpoint cannot be the company's: not one of the caller's, or one where their
    access is limited."""
    if company_id is not None and company_id in (principal.limited_company_ids or frozenset()):
        return Violation("company", LIMITED_HERE)
    if company_id is None or company_id not in principal.company_ids:
        return Violation("company", NOT_YOUR_COMPANY)
    return None


def _endpoint(db: Session, principal: Principal, endpoint_id: uuid.UUID) -> WebhookEndpoint:
    statement = select(WebhookEndpoint).where(col(WebhookEndpoint.id) == endpoint_id)
    return one_or_404(db, scope_to_companies(statement, principal, WebhookEndpoint.company_id))


def _new_secret(db: Session, endpoint: WebhookEndpoint) -> str:
    secret = webhooks.new_secret()
    endpoint.secret = webhooks.seal_secret(secret, endpoint.id)
    return secret


@router.post(
    "",
    status_code=201,
    response_model=NewSecretOut,
    summary="Register a webhook endpoint",
    responses={403: {"description": "Not a user manager of the company."}},
)
def create_webhook(
    body: WebhookIn, request: Request, db: SessionDep, principal: Manager
) -> NewSecretOut:
    """An enabled endpoint for the events chosen; the answer is the only time its signing
    secret is shown."""
    violations = _url_violations(body.url) + _event_violations(body.event_types)
    company_id = _company(db, principal, body.company)
    refused = _company_violation(principal, company_id)
    if refused is not None:
        violations.append(refused)
    if violations or refused is not None or company_id is None:
        raise ApiError(422, violations=violations)
    endpoint = WebhookEndpoint(
        company_id=company_id,
        url=body.url.strip(),
        description=body.description.strip(),
        event_types=body.event_types,
        secret="",
    )
    secret = _new_secret(db, endpoint)
    db.add(endpoint)
    audit.record(
        db, request, "webhook.create", actor=principal.user, webhook_id=str(endpoint.id),
        url=endpoint.url,
    )  # fmt: skip
    db.commit()
    db.refresh(endpoint)
    return NewSecretOut(**webhook_out(endpoint).model_dump(), secret=secret)


@router.get("", response_model=Collection[WebhookOut], summary="List the webhook endpoints")
def list_webhooks(
    request: Request,
    db: SessionDep,
    principal: Manager,
    page: PaginationDep,
    sort: Annotated[Sort, Depends(WEBHOOKS.sorting.read)],
) -> Collection[WebhookOut]:
    """The endpoints of the caller's companies, oldest first, without their secrets."""
    endpoints, total = WEBHOOKS.page(db, principal, select(WebhookEndpoint), sort, page)
    return WEBHOOKS.answer(request, [webhook_out(e) for e in endpoints], total, page)


@router.get(
    "/{webhook_id}",
    response_model=WebhookOut,
    summary="Read a webhook endpoint",
    responses={404: {}},
)
def read_webhook(webhook_id: uuid.UUID, db: SessionDep, principal: Manager) -> WebhookOut:
    return webhook_out(_endpoint(db, principal, webhook_id))


@router.patch(
    "/{webhook_id}",
    response_model=WebhookOut,
    summary="Change, disable or enable a webhook endpoint",
    responses={404: {}},
)
def change_webhook(
    webhook_id: uuid.UUID,
    body: WebhookChange,
    request: Request,
    db: SessionDep,
    principal: Manager,
) -> WebhookOut:
    """Only the fields sent change. A disabled endpoint receives nothing; enabled again, it
    receives the events that follow."""
    endpoint = _endpoint(db, principal, webhook_id)
    violations = []
    if body.url is not None:
        violations += _url_violations(body.url)
    if body.event_types is not None:
        violations += _event_violations(body.event_types)
    if violations:
        raise ApiError(422, violations=violations)
    if body.url is not None:
        endpoint.url = body.url.strip()
    if body.description is not None:
        endpoint.description = body.description.strip()
    if body.event_types is not None:
        endpoint.event_types = body.event_types
    if body.enabled is not None and body.enabled != endpoint.enabled:
        endpoint.enabled = body.enabled
        endpoint.disabled_reason = None if body.enabled else webhooks.DISABLED_MANUALLY
        if not body.enabled:
            webhooks.fail_pending(db, endpoint.id)
    audit.record(
        db, request, "webhook.change", actor=principal.user, webhook_id=str(endpoint.id),
        fields=sorted(body.model_fields_set),
    )  # fmt: skip
    db.commit()
    db.refresh(endpoint)
    return webhook_out(endpoint)


@router.delete(
    "/{webhook_id}",
    status_code=204,
    response_class=Response,
    summary="Delete a webhook endpoint",
    responses={204: {"description": "Deleted, with its delivery log."}, 404: {}},
)
def delete_webhook(
    webhook_id: uuid.UUID, request: Request, db: SessionDep, principal: Manager
) -> Response:
    endpoint = _endpoint(db, principal, webhook_id)
    audit.record(
        db, request, "webhook.delete", actor=principal.user, webhook_id=str(endpoint.id),
        url=endpoint.url,
    )  # fmt: skip
    db.delete(endpoint)
    db.commit()
    return Response(status_code=204)


@router.post(
    "/{webhook_id}/rotate_secret",
    response_model=NewSecretOut,
    summary="Rotate a webhook endpoint's signing secret",
    responses={404: {}},
)
def rotate_secret(
    webhook_id: uuid.UUID, request: Request, db: SessionDep, principal: Manager
) -> NewSecretOut:
    """A new secret, shown this once; for 24 hours the previous one signs too (each delivery
    then carries both signatures), so receivers can switch without losing an event."""
    endpoint = _endpoint(db, principal, webhook_id)
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_secret_expires_at = utcnow() + webhooks.ROTATION_OVERLAP
    secret = _new_secret(db, endpoint)
    audit.record(db, request, "webhook.rotate", actor=principal.user, webhook_id=str(endpoint.id))
    db.commit()
    db.refresh(endpoint)
    return NewSecretOut(**webhook_out(endpoint).model_dump(), secret=secret)


@router.post(
    "/{webhook_id}/test",
    status_code=202,
    response_model=DeliveryOut,
    summary="Send a test event to a webhook endpoint",
    responses={404: {}, 409: {"description": "The endpoint is disabled."}},
)
def send_test_event(webhook_id: uuid.UUID, db: SessionDep, principal: Manager) -> DeliveryOut:
    """A ``ping`` event, delivered like any other (after what waits before it) and written in
    the delivery log, which shows what the receiver answered."""
    endpoint = _endpoint(db, principal, webhook_id)
    if not endpoint.enabled:
        raise ApiError(409, ENABLE_FIRST)
    delivery = webhooks.enqueue(
        db,
        endpoint,
        webhooks.PING,
        {"webhook": iri("webhooks", endpoint.id), "message": TEST_MESSAGE},
    )
    db.commit()
    db.refresh(delivery)
    return delivery_out(delivery)


@router.get(
    "/{webhook_id}/deliveries",
    response_model=Collection[DeliveryOut],
    summary="Read a webhook endpoint's delivery log",
    responses={404: {}},
)
def list_deliveries(
    webhook_id: uuid.UUID,
    request: Request,
    db: SessionDep,
    principal: Manager,
    page: PaginationDep,
    sort: Annotated[Sort, Depends(WEBHOOK_DELIVERIES.sorting.read)],
) -> Collection[DeliveryOut]:
    """The endpoint's deliveries, newest first: state, attempts, the last answer."""
    _endpoint(db, principal, webhook_id)
    statement = (
        select(WebhookDelivery)
        .join(WebhookEndpoint, col(WebhookEndpoint.id) == col(WebhookDelivery.endpoint_id))
        .where(col(WebhookDelivery.endpoint_id) == webhook_id)
    )
    deliveries, total = WEBHOOK_DELIVERIES.page(db, principal, statement, sort, page)
    return WEBHOOK_DELIVERIES.answer(request, [delivery_out(d) for d in deliveries], total, page)
