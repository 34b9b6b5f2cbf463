"""Services, keyed on their reference, with their endpoints, milestones and attributes.

An endpoint with a reference is shared: upserted by that reference, any service may point to it.
An endpoint sent without one belongs to its service and is updated in place. Milestones and
attributes, when sent, replace the stored ones. Documents and the order form are files: they
are uploaded to ``/api/integration/services/{reference}/…`` once the service exists.
"""

import uuid
from collections import Counter
from typing import Any

from pydantic import Field
from sqlmodel import Session, col, delete, select, update

from portal.i18n import N_
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    Email,
    InputModel,
    OptionalText,
    Reference,
    Text,
    assign,
    chunks,
    duplicates,
    path,
    rows_by,
    unknown,
    upsert_row,
)
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.hydra import IsoDate
from portal.provider.platform.models import (
    Company,
    Endpoint,
    MilestoneName,
    Service,
    ServiceAttribute,
    ServiceMilestone,
    ServiceStatus,
    ServiceType,
    Ticket,
    User,
    UserServiceGrant,
)

UNKNOWN_TYPE = N_("Unknown service type: {key}.")


class EndpointIn(InputModel):
    reference: Reference | None = Field(
        default=None, description="Shared endpoint's reference; absent: the service's own."
    )
    name: Text = Field(max_length=200)
    number: OptionalText = Field(default=None, max_length=20)
    street: OptionalText = Field(default=None, max_length=200)
    postal_code: OptionalText = Field(default=None, max_length=20)
    city: OptionalText = Field(default=None, max_length=100)
    country: OptionalText = Field(default=None, max_length=100)


class MilestoneIn(InputModel):
    name: MilestoneName
    date: IsoDate | None = None
    completed: bool = False


class AttributeIn(InputModel):
    name: Text = Field(max_length=100, examples=["rate"])
    value: str = Field(max_length=500, examples=["10G"])
    group_name: OptionalText = Field(default=None, max_length=100)
    constrained: bool = False


class OrderIn(InputModel):
    reference: Reference


class ServiceIn(InputModel):
    reference: Reference = Field(description="The provider's own reference: the key.")
    company: Reference = Field(description="Reference of the owning company.")
    type: Text = Field(max_length=60, description="Key of the service type (`ip_transit`…).")
    status: ServiceStatus
    date_start: IsoDate | None = Field(default=None, description="Ready-for-service date.")
    date_termination: IsoDate | None = None
    client_references: list[Text] | None = Field(
        default=None,
        description="The customer's own references; absent: unchanged (customers edit them).",
    )
    delivery_manager: Email | None = Field(default=None, description="E-mail of a staff user.")
    order: OrderIn | None = None
    endpoint_a: EndpointIn | None = None
    endpoint_b: EndpointIn | None = None
    milestones: list[MilestoneIn] | None = None
    attributes: list[AttributeIn] | None = None


_PRELOAD = preload(Service.milestones, Service.attributes, Service.endpoint_a, Service.endpoint_b)


def check(db: Session, entries: Entries[ServiceIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    services = rows_by(db, Service.reference, (item.reference for item in items), _PRELOAD)
    companies = rows_by(db, Company.reference, (item.company for item in items))
    types = rows_by(db, ServiceType.key, (item.type for item in items))
    managers = rows_by(db, User.email, (item.delivery_manager for item in items))
    endpoint_refs = {
        endpoint.reference
        for item in items
        for endpoint in (item.endpoint_a, item.endpoint_b)
        if endpoint and endpoint.reference
    }
    endpoints = rows_by(db, Endpoint.reference, endpoint_refs)
    for index, item in entries:
        violations += unknown(index, "company", item.company, companies)
        if item.type not in types:
            violations.append(Violation(path(index, "type"), UNKNOWN_TYPE, {"key": item.type}))
        if item.delivery_manager:
            violations += unknown(
                index, "deliveryManager", item.delivery_manager, managers, email=True
            )
    return (services, companies, types, managers, endpoints), violations


def _endpoint(
    current: Endpoint | None, given: EndpointIn | None, shared: dict[str, Endpoint]
) -> tuple[Endpoint | None, bool]:
    """The endpoint the service should point to, and whether anything changed."""
    if given is None:
        return None, current is not None
    if given.reference:
        endpoint = shared.get(given.reference) or Endpoint(reference=given.reference, name="")
        shared[given.reference] = endpoint
    else:
        private = current is not None and current.reference is None
        endpoint = current if current is not None and private else Endpoint(name="")
    fields = given.model_dump(exclude={"reference"})
    changed = assign(endpoint, fields)
    return endpoint, changed or endpoint is not current


def _milestones(item: ServiceIn) -> list[tuple[Any, ...]]:
    return [(m.name, m.date, m.completed) for m in item.milestones or ()]


def _attributes(item: ServiceIn) -> list[tuple[Any, ...]]:
    return [(a.name, a.value, a.group_name, a.constrained) for a in item.attributes or ()]


def _children(service: Service, item: ServiceIn) -> bool:
    """Replace the milestones and attributes that were sent; answers whether they changed."""
    changed = False
    milestones = [(m.name, m.date, m.completed) for m in service.milestones]
    if item.milestones is not None and milestones != _milestones(item):
        service.milestones = [
            ServiceMilestone(
                service_id=service.id, name=name, date=date, completed=completed, position=position
            )
            for position, (name, date, completed) in enumerate(_milestones(item))
        ]
        changed = True
    attributes = [(a.name, a.value, a.group_name, a.constrained) for a in service.attributes]
    if item.attributes is not None and Counter(attributes) != Counter(_attributes(item)):
        service.attributes = [
            ServiceAttribute(
                service_id=service.id,
                name=name,
                value=value,
                group_name=group,
                constrained=constrained,
            )
            for name, value, group, constrained in _attributes(item)
        ]
        changed = True
    return changed


def write(db: Session, entries: Entries[ServiceIn], resolved: Any) -> Counts:
    services, companies, types, managers, endpoints = resolved
    counts = Counts()
    created_references = []
    changed_company: list[uuid.UUID] = []
    for _, item in entries:
        stored = services.get(item.reference)
        if stored is not None and stored.company_id != companies[item.company].id:
            changed_company.append(stored.id)
        values: dict[str, Any] = {
            "reference": item.reference,
            "company_id": companies[item.company].id,
            "type_id": types[item.type].id,
            "status": item.status,
        }
        for name in ("date_start", "date_termination", "client_references"):
            if item.given(name):
                values[name] = getattr(item, name)
        if item.given("delivery_manager"):
            manager = managers.get(item.delivery_manager)
            values["delivery_manager_id"] = manager.id if manager else None
        if item.given("order"):
            values["order_reference"] = item.order.reference if item.order else None
        service, created, changed = upsert_row(Service, stored, values)
        for side in ("endpoint_a", "endpoint_b"):
            if item.given(side):
                endpoint, moved = _endpoint(getattr(service, side), getattr(item, side), endpoints)
                if moved:
                    setattr(service, side, endpoint)
                    changed = True
        changed = _children(service, item) or changed
        db.add(service)
        counts.add(created, changed)
        if created:
            created_references.append(service.reference)
    _link_waiting_tickets(db, created_references)
    _drop_grants(db, changed_company)
    return counts


def _drop_grants(db: Session, service_ids: list[uuid.UUID]) -> None:
    """A service moved to another company leaves the sets of the users limited in the one it
    left: a grant is given in a company (its ``company_id`` is the service's, which the limited
    users' counts rely on), and the new company's user managers decide who sees it there."""
    for part in chunks(service_ids):
        db.exec(delete(UserServiceGrant).where(col(UserServiceGrant.service_id).in_(part)))


def _link_waiting_tickets(db: Session, references: list[str]) -> None:
    """Tickets loaded before their service (``service_reference`` naming one not yet known)
    take its id when it arrives: a limited user's tickets are found by it (issue 53)."""
    if not references:
        return
    db.flush()
    service_id = (
        select(Service.id)
        .where(col(Service.reference) == col(Ticket.service_reference))
        .scalar_subquery()
    )
    for part in chunks(references):
        db.exec(
            update(Ticket)
            .where(col(Ticket.service_reference).in_(part), col(Ticket.service_id).is_(None))
            .values(service_id=service_id)
            .execution_options(synchronize_session=False)
        )


KIND = Kind(
    name="service",
    path="services",
    model=ServiceIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update services",
    description="Upsert up to 1 000 services keyed on `reference`, with their endpoints, "
    "milestones and attributes. Upload documents and the order form afterwards.",
    example=[
        {
            "reference": "PB-IPT-24017",
            "company": "C-1001",
            "type": "ip_transit",
            "status": "active",
            "dateStart": "2025-03-14",
            "deliveryManager": "jeanne.roux@patchbay.test",
            "order": {"reference": "ORD-2025-0042"},
            "endpointA": {
                "name": "Equinix PA2",
                "number": "114",
                "street": "rue Ambroise Croizat",
                "postalCode": "93200",
                "city": "Saint-Denis",
                "country": "France",
            },
            "milestones": [
                {"name": "received", "date": "2025-01-10", "completed": True},
                {"name": "operational", "date": "2025-03-14", "completed": True},
            ],
            "attributes": [{"name": "rate", "value": "10G", "groupName": "port"}],
        }
    ],
)
