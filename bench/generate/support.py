"""Support tickets, and maintenance windows with the services they impact and their contacts."""

import re
from datetime import datetime, timedelta

from bench.generate.progress import Progress
from bench.generate.world import CustomerCompany, World
from portal.provider.demo_data.maintenances import WORKS
from portal.provider.demo_data.tickets import STORIES
from portal.provider.platform.models import (
    MaintenanceClassification,
    MaintenanceStatus,
    MaintenanceType,
    TicketPriority,
    TicketStatus,
    fold,
)

TICKET_COLUMNS = (
    "id", "number", "reference", "company_id", "name", "date_created", "subject",
    "search_subject", "status", "priority", "description_html", "short_description",
    "requester_email", "technician_email", "account_name", "type", "service_reference",
    "service_id",
)  # fmt: skip
MAINTENANCE_COLUMNS = (
    "id", "reference", "name", "type", "classification", "status", "date_start", "date_end",
    "date_notification", "updated_at",
)  # fmt: skip
TECHNICIANS = ("maxime.leroy@patchbay.test", "ana.silva@patchbay.test", "noc@patchbay.test")
CONTACTS = ("noc@patchbay.test", "change-management@patchbay.test")
FIRST_TICKET_NUMBER = 200_001
_TICKET_STATUSES = {status: 1 for status in TicketStatus} | {
    TicketStatus.CLOSED: 12,
    TicketStatus.SOLVED: 6,
}
_FINISHED = {TicketStatus.CLOSED, TicketStatus.SOLVED}
_TAG = re.compile(r"<[^>]+>")
_SHORT = {
    story.description_en: " ".join(_TAG.sub(" ", story.description_en.split("</p>")[0]).split())
    for story in STORIES
} | {
    story.description_fr: " ".join(_TAG.sub(" ", story.description_fr.split("</p>")[0]).split())
    for story in STORIES
}
# The folded subject of the list's filter, as the provider's flush would store it.
_FOLDED = {subject: fold(subject) for story in STORIES for subject in story[1:3]}
_KIND_LABELS = {
    ("incident", False): "Incident",
    ("incident", True): "Incident",
    ("request", False): "Service request",
    ("request", True): "Demande de service",
}


def build_tickets(world: World) -> None:
    world.spool("tickets", TICKET_COLUMNS)
    progress = Progress("tickets", world.plan.tickets)
    number = FIRST_TICKET_NUMBER
    for customer, count in zip(world.customers, world.split("tickets"), strict=True):
        for _ in range(count):
            _ticket(world, customer, number)
            number += 1
        progress.advance(count)
    progress.finish()


def _ticket(world: World, customer: CustomerCompany, number: int) -> None:
    rng = world.rng
    story = rng.choice(STORIES)
    status = rng.choices(list(_TICKET_STATUSES), list(_TICKET_STATUSES.values()))[0]
    age = rng.randint(20, 1500) if status in _FINISHED else rng.randint(0, 19)
    created = world.plan.anchor_time - timedelta(days=age, minutes=rng.randint(0, 1439))
    description = story.description_fr if customer.french else story.description_en
    subject = story.subject_fr if customer.french else story.subject_en
    incident = story.kind == "incident"
    priority = rng.choice(
        (TicketPriority.CRITICAL, TicketPriority.HIGH, TicketPriority.MEDIUM)
        if incident
        else (TicketPriority.MEDIUM, TicketPriority.LOW)
    )
    concerns_service = incident or rng.random() < 0.5
    # Drawn where the reference was drawn before: the data set is the one it was.
    requester = rng.choice(customer.user_emails)
    technician = None if status is TicketStatus.OPEN else rng.choice(TECHNICIANS)
    service = rng.randrange(len(customer.service_ids)) if concerns_service else None
    world.add(
        "tickets",
        world.new_id(),
        number,
        f"HD-{number}",
        customer.id,
        f"{'INC' if incident else 'REQ'}{number:07d}",
        created,
        subject,
        _FOLDED[subject],
        status.value,
        priority.value,
        description,
        _SHORT[description][:500],
        requester,
        technician,
        customer.name,
        _KIND_LABELS[(story.kind, customer.french)],
        None if service is None else customer.service_references[service],
        None if service is None else customer.service_ids[service],
    )


def build_maintenances(world: World) -> None:
    """Maintenances on the network impact services of several customers at once; the heavy
    tenant's share follows its share of the services."""
    world.spool("maintenances", MAINTENANCE_COLUMNS)
    world.spool("maintenance_services", ("maintenance_id", "service_id", "company_id"))
    world.spool("maintenance_contacts", ("id", "maintenance_id", "email"))
    rng = world.rng
    weights = [len(customer.service_ids) for customer in world.customers]
    progress = Progress("maintenances", world.plan.maintenances)
    for index in range(world.plan.maintenances):
        maintenance_id = world.new_id()
        kind = rng.choice(list(MaintenanceType))
        status, start = _window(world, kind)
        end = start + timedelta(hours=rng.randint(1, 6), minutes=rng.choice((0, 30)))
        notice = timedelta(hours=rng.randint(1, 6) if kind is MaintenanceType.EMERGENCY else 0)
        notice = notice or timedelta(days=rng.randint(7, 21))
        work = WORKS[index % len(WORKS)]
        world.add(
            "maintenances",
            maintenance_id,
            f"MNT-{index + 1:07d}",
            work.name_fr if rng.random() < 0.5 else work.name_en,
            kind.value,
            rng.choice(list(MaintenanceClassification)).value,
            status.value,
            start,
            end,
            start - notice,
            min(start - notice, world.plan.anchor_time),
        )
        impacted = {}
        for customer in rng.choices(world.customers, weights, k=rng.randint(1, 6)):
            impacted[rng.choice(customer.service_ids)] = customer.id
        for service_id, company_id in impacted.items():
            world.add("maintenance_services", maintenance_id, service_id, company_id)
        for email in CONTACTS[: rng.randint(1, 2)]:
            world.add("maintenance_contacts", world.new_id(), maintenance_id, email)
        progress.advance()
    progress.finish()


def _window(world: World, kind: MaintenanceType) -> tuple[MaintenanceStatus, datetime]:
    rng = world.rng
    draw = rng.random()
    midnight = world.plan.anchor_time
    if draw < 0.01:
        return MaintenanceStatus.ONGOING, midnight - timedelta(hours=rng.randint(1, 3))
    hour = rng.randint(9, 16) if kind is MaintenanceType.EMERGENCY else rng.choice((22, 23))
    if draw < 0.15:
        start = midnight + timedelta(days=rng.randint(1, 90), hours=hour)
        return MaintenanceStatus.SCHEDULED, start
    start = midnight - timedelta(days=rng.randint(1, 1500), hours=24 - hour)
    status = MaintenanceStatus.CANCELLED if draw < 0.2 else MaintenanceStatus.COMPLETED
    return status, start
